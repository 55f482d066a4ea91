/**
 * A form-posting HTTP client for the dashboard tests: keeps cookies like a browser (per name,
 * HttpOnly ones included), follows nothing by itself, and fills forms' hidden `_csrf` from the
 * last page it read.
 */
export interface Page {
  status: number;
  location: string | null;
  html: string;
  headers: Headers;
}

export class BrowserLike {
  readonly cookies = new Map<string, string>();
  private csrf = '';

  /** `headers`: sent with every request (e.g. the client address a trusted proxy would add). */
  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async read(res: Response): Promise<Page> {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, i).trim();
      const value = (pair as string).slice(i + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, location: res.headers.get('location'), html, headers: res.headers };
  }

  async get(path: string): Promise<Page> {
    return this.read(
      await fetch(`${this.base}${path}`, {
        headers: { ...this.headers, cookie: this.cookieHeader() },
        redirect: 'manual',
      }),
    );
  }

  /** Posts a form as the page's own form would: the page's token and this origin, unless overridden. */
  async post(path: string, fields: Record<string, string>, opts: { origin?: string; csrf?: string | null } = {}) {
    const body = new URLSearchParams(fields);
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (csrf !== null) body.set('_csrf', csrf);
    return this.read(
      await fetch(`${this.base}${path}`, {
        method: 'POST',
        headers: {
          ...this.headers,
          cookie: this.cookieHeader(),
          'content-type': 'application/x-www-form-urlencoded',
          origin: opts.origin ?? new URL(this.base).origin,
        },
        body,
        redirect: 'manual',
      }),
    );
  }
}
