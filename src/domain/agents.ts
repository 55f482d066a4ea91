/**
 * Agent names: what X-Svc-Agent may declare and what a key or an OAuth grant may be bound to, and
 * how texts and the dashboard show one.
 */
import { Invalid } from './errors';

const MAX_AGENT = 128;

/**
 * Characters no name may hold: controls (Cc), invisible format characters (Cf), line and paragraph
 * separators, and U+FFFD, which stands for bytes that were not text (workerd reads a header's
 * bytes as UTF-8 and puts it for each byte that is not), so names sent differently would meet in it.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\ufffd]/u;

/** The names of the hidden characters a spoofed name most often carries. */
const HIDDEN_NAMES: Record<string, string> = {
  '00AD': 'soft hyphen',
  '200B': 'zero width space',
  '200C': 'zero width non-joiner',
  '200D': 'zero width joiner',
  '200E': 'left-to-right mark',
  '200F': 'right-to-left mark',
  '202A': 'left-to-right embedding',
  '202B': 'right-to-left embedding',
  '202C': 'pop directional formatting',
  '202D': 'left-to-right override',
  '202E': 'right-to-left override',
  '2060': 'word joiner',
  '2066': 'left-to-right isolate',
  '2067': 'right-to-left isolate',
  '2068': 'first strong isolate',
  '2069': 'pop directional isolate',
  FEFF: 'zero width no-break space (byte order mark)',
};

/** `U+200B (zero width space, an invisible format character)`. */
function describe(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp === 0xfffd) return 'U+FFFD (the replacement character: the name was not sent as UTF-8)';
  const kind = /\p{Cc}/u.test(ch)
    ? 'a control character'
    : /\p{Cf}/u.test(ch)
      ? 'an invisible format character'
      : /\p{Zl}/u.test(ch)
        ? 'a line separator'
        : 'a paragraph separator';
  const hex = cp.toString(16).toUpperCase().padStart(4, '0');
  const name = HIDDEN_NAMES[hex];
  return `U+${hex} (${name ? `${name}, ` : ''}${kind})`;
}

/**
 * 1–128 characters, NFC-normalised (so `é` composed and decomposed name one agent) and trimmed;
 * absent or blank is null. Refuses control and invisible format characters and line or paragraph
 * separators anywhere (a soft hyphen or a zero width space would make a second agent that reads
 * as the first), and U+FFFD, saying which and where. `field` names the input in the error.
 */
/** The agent a call acts as when it names none (no X-Svc-Agent, an unbound key): one shared identity. */
export const DEFAULT_AGENT = 'default';

export function agentName(raw: string | null | undefined, field: string): string | null {
  if (raw == null) return null;
  if (!raw.isWellFormed()) throw new Invalid(field, 'must be well-formed Unicode text (it holds a lone surrogate)');
  const whole = raw.normalize('NFC');
  const agent = whole.trim();
  // trim() drops a byte order mark and line separators at the ends too: look for those in the whole value
  const hidden = HIDDEN.exec(agent) ?? /[\p{Cf}\p{Zl}\p{Zp}]/u.exec(whole);
  if (hidden) {
    const at = [...hidden.input.slice(0, hidden.index)].length + 1;
    throw new Invalid(
      field,
      `must not contain control or invisible characters; found ${describe(hidden[0])} at character ${at}: remove it and send the name as it reads`,
    );
  }
  if (!agent) return null;
  if (agent.length > MAX_AGENT) throw new Invalid(field, `must be at most ${MAX_AGENT} characters`);
  return agent;
}

/**
 * Every script whose letters a name may hold (Unicode 15.1, and 16 where the runtime knows it),
 * the most used first: each pattern is compiled when a character first gets that far (about
 * 0.2 ms each), so Latin and Cyrillic cost two and only a rare script walks the list.
 */
const SCRIPTS =
  'Latin Cyrillic Greek Han Hiragana Katakana Hangul Arabic Hebrew Devanagari Thai Common Inherited Bopomofo Armenian Georgian Bengali Tamil Telugu Kannada Malayalam Gujarati Gurmukhi Oriya Sinhala Lao Khmer Myanmar Tibetan Ethiopic Syriac Thaana Nko Samaritan Mandaic Cherokee Canadian_Aboriginal Ogham Runic Tagalog Hanunoo Buhid Tagbanwa Mongolian Limbu Tai_Le New_Tai_Lue Buginese Tai_Tham Balinese Sundanese Batak Lepcha Ol_Chiki Glagolitic Tifinagh Coptic Yi Lisu Vai Bamum Syloti_Nagri Phags_Pa Saurashtra Kayah_Li Rejang Javanese Cham Tai_Viet Meetei_Mayek Linear_B Lycian Carian Old_Italic Gothic Old_Permic Ugaritic Old_Persian Deseret Shavian Osmanya Osage Elbasan Caucasian_Albanian Vithkuqi Linear_A Cypriot Imperial_Aramaic Palmyrene Nabataean Hatran Phoenician Lydian Meroitic_Hieroglyphs Meroitic_Cursive Kharoshthi Old_South_Arabian Old_North_Arabian Manichaean Avestan Inscriptional_Parthian Inscriptional_Pahlavi Psalter_Pahlavi Old_Turkic Old_Hungarian Hanifi_Rohingya Yezidi Old_Sogdian Sogdian Old_Uyghur Chorasmian Elymaic Brahmi Kaithi Sora_Sompeng Chakma Mahajani Sharada Khojki Multani Khudawadi Grantha Newa Tirhuta Siddham Modi Takri Ahom Dogra Warang_Citi Dives_Akuru Nandinagari Zanabazar_Square Soyombo Pau_Cin_Hau Bhaiksuki Marchen Masaram_Gondi Gunjala_Gondi Makasar Kawi Cuneiform Cypro_Minoan Egyptian_Hieroglyphs Anatolian_Hieroglyphs Mro Tangsa Bassa_Vah Pahawh_Hmong Medefaidrin Miao Tangut Nushu Khitan_Small_Script Duployan SignWriting Nyiakeng_Puachue_Hmong Toto Wancho Nag_Mundari Mende_Kikakui Adlam Braille Garay Gurung_Khema Kirat_Rai Ol_Onal Sunuwar Todhri Tulu_Tigalari'.split(
    ' ',
  );
/** Each script's pattern once compiled; null where this runtime does not know the script. */
const patterns: (RegExp | null | undefined)[] = [];
/** Characters of no one script: punctuation, digits, symbols (Common), combining marks (Inherited). */
const NEUTRAL = new Set(['Common', 'Inherited']);

/** Which script a character is of, by name, or null for Common, Inherited and unassigned ones (digits, `-`, accents). */
function scriptOf(ch: string): string | null {
  if (ch < '\x80') return /[A-Za-z]/.test(ch) ? 'Latin' : null;
  for (let i = 0; i < SCRIPTS.length; i++) {
    const name = SCRIPTS[i] as string;
    let re = patterns[i];
    if (re === undefined) {
      try {
        re = new RegExp(`^\\p{Script=${name}}$`, 'u');
      } catch {
        re = null; // a script newer than this runtime's Unicode
      }
      patterns[i] = re;
    }
    if (re?.test(ch)) return NEUTRAL.has(name) ? null : name.replaceAll('_', ' ');
  }
  return null; // unassigned in this runtime's Unicode
}

/** Scripts that one writing system uses together (UTS #39's augmented sets): Japanese, Korean, Chinese with Bopomofo. */
const TOGETHER: Record<string, string[]> = {
  Han: ['Japanese', 'Korean', 'Bopomofo'],
  Hiragana: ['Japanese'],
  Katakana: ['Japanese'],
  Hangul: ['Korean'],
  Bopomofo: ['Bopomofo'],
};

const mixedSeen = new Map<string, string[] | null>();

/**
 * The scripts a name mixes (sorted), or null when its letters are of one script: `аgent-b` with
 * a Cyrillic `а` is `['Cyrillic', 'Latin']`. Common and Inherited characters (digits, `-`, `_`,
 * `.`, combining accents) do not count, nor Han beside Hiragana and Katakana, or Hangul, or
 * Bopomofo. Such a name is allowed but marked wherever it is shown, as it may imitate another.
 */
export function mixedScripts(name: string): string[] | null {
  if (/^[\x00-\x7f]*$/.test(name)) return null;
  const seen = mixedSeen.get(name);
  if (seen !== undefined) return seen;
  const scripts = new Set<string>();
  for (const ch of name) {
    const s = scriptOf(ch);
    if (s) scripts.add(s);
  }
  let common: string[] | null = null;
  for (const s of scripts) {
    const sets = [s, ...(TOGETHER[s] ?? [])];
    common = common === null ? sets : common.filter((x) => sets.includes(x));
  }
  const mixed = common !== null && common.length === 0 ? [...scripts].sort() : null;
  if (mixedSeen.size >= 1000) mixedSeen.clear();
  mixedSeen.set(name, mixed);
  return mixed;
}

/** ` (mixed scripts: Cyrillic+Latin)` after a name that mixes scripts, else nothing. */
export const mixedMark = (name: string): string => {
  const mixed = mixedScripts(name);
  return mixed ? ` (mixed scripts: ${mixed.join('+')})` : '';
};

/** The characters a name may be shown with bare in a text the model reads. */
const PLAIN_NAME = /^[\p{L}\p{N}._@+\-/:]+$/u;

/**
 * An agent's (or a member's) name as texts show it: bare when it is one plain word (`alice`,
 * `ci-bot`, `ana@acme.com`), quoted as a JSON string otherwise, so that no name can pass for
 * the words a text puts around it: an agent called `boss@acme.com (member)` or `alice (verified)`
 * shows as `"boss@acme.com (member)"`, never as the member or as the verified alice. A name that
 * mixes scripts is followed by the mark saying so (`раypal (mixed scripts: Cyrillic+Latin)`).
 */
export const nameText = (name: string): string =>
  (PLAIN_NAME.test(name) ? name : JSON.stringify(name)) + mixedMark(name);
