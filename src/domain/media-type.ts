/**
 * Media types as HTTP writes them (RFC 9110 §8.3.1): `type/subtype`, each a token, then any
 * number of `; name=value` parameters whose value is a token or a quoted string. An artifact's
 * `content_type` is one, because it is echoed into the model's text and sent as a Content-Type
 * header: no control characters, no line or paragraph separators, nothing outside printable ASCII.
 */

/** The longest media type accepted (RFC 6838 caps type and subtype at 127 characters each). */
export const MAX_MEDIA_TYPE = 255;

/** The bytes of what stored a type that is not one (an older database may hold such rows). */
export const OCTET_STREAM = 'application/octet-stream';

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** A quoted string: printable ASCII but `"` and `\`, and `\`-escaped printable ASCII. */
const QUOTED = '"(?:[ !#-\\[\\]-~]|\\\\[ -~])*"';
/**
 * Unambiguous (each parameter starts at its `;`, a token holds no space, `;`, `=` or `"`), so it
 * matches in one pass; only ever run on at most MAX_MEDIA_TYPE characters.
 */
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?: *;(?: *${TOKEN}=(?:${TOKEN}|${QUOTED}))?)* *$`);

/** Whether `s` is a media type such as `text/markdown` or `text/plain; charset=utf-8`. */
export function isMediaType(s: string): boolean {
  return s.length <= MAX_MEDIA_TYPE && MEDIA_TYPE.test(s);
}

/** `s` when it is a media type, else application/octet-stream: what a header or a model may be shown. */
export function servableMediaType(s: string): string {
  return isMediaType(s) ? s : OCTET_STREAM;
}
