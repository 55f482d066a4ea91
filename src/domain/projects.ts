/**
 * Project identifiers in canonical form, so that every clone of one repository lands in one
 * project: git remote URLs become `host/owner/repo` (lower-cased; scheme, user, password,
 * `.git`, default ports and trailing slashes removed), absolute paths become normalised paths.
 * Anything else is unrecognised and the caller falls back to org-wide scope.
 */
export type ProjectResolution =
  | { given: false; canonical: null; recognised: false }
  | { given: true; canonical: string; recognised: true }
  | { given: true; canonical: null; recognised: false };

const MAX_INPUT = 1024;
const DEFAULT_PORTS: Record<string, string> = { https: '443', http: '80', ssh: '22', git: '9418' };
const HOST_RE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;
const SEGMENT_RE = /^[^\s/\\:@?#]+$/;

/**
 * Identifiers resolved lately: an agent names the same few projects on every call, and parsing one
 * (URL, scp and path forms, host and segment checks) was the costliest function of a short call.
 * Bounded: emptied when full.
 */
const recent = new Map<string, string | null>();
const RECENT_MAX = 1000;

export function resolveProject(input: string | null | undefined): ProjectResolution {
  if (input === undefined || input === null || input.trim() === '') {
    return { given: false, canonical: null, recognised: false };
  }
  let canonical = recent.get(input);
  if (canonical === undefined) {
    canonical = canonicalProject(input);
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(input, canonical);
  }
  return canonical === null
    ? { given: true, canonical: null, recognised: false }
    : { given: true, canonical, recognised: true };
}

/** The canonical form of a project identifier, or null when it is not recognised. */
export function canonicalProject(raw: string): string | null {
  const input = raw.trim();
  if (input.length > MAX_INPUT || hasControl(input)) return null;
  return fromUrl(input) ?? fromScp(input) ?? fromPath(input) ?? fromCanonical(input);
}

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function hostPath(host: string, port: string, path: string, scheme: string): string | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (!HOST_RE.test(h) && h !== 'localhost') return null;
  const segments = path
    .replace(/\.git\/*$/i, '')
    .split('/')
    .filter((s) => s !== '');
  if (segments.length < 1 || segments.some((s) => !SEGMENT_RE.test(s) || s === '.' || s === '..')) {
    return null;
  }
  const p = port && port !== DEFAULT_PORTS[scheme] ? `:${port}` : '';
  return `${h}${p}/${segments.join('/').replace(/\.git$/i, '')}`.toLowerCase();
}

/** `https://…`, `http://…`, `ssh://…`, `git://…`, `git+ssh://…`. Credentials are dropped. */
function fromUrl(input: string): string | null {
  const m = /^(https?|ssh|git|git\+ssh|ssh\+git):\/\/(?:[^@/]*@)?([^/:?#]+)(?::(\d*))?(\/[^?#]*)?(?:[?#].*)?$/i.exec(
    input,
  );
  if (!m) return null;
  const scheme = (m[1] ?? '').toLowerCase().includes('ssh') ? 'ssh' : (m[1] ?? '').toLowerCase();
  return hostPath(m[2] ?? '', m[3] ?? '', m[4] ?? '', scheme);
}

/** scp-like git syntax: `git@github.com:Acme/Widgets.git`. */
function fromScp(input: string): string | null {
  const m = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)([^\s]+)$/.exec(input);
  if (!m || /^[a-z]$/i.test(m[1] ?? '')) return null; // `C:…` is a Windows path
  return hostPath(m[1] ?? '', '', m[2] ?? '', 'ssh');
}

/** Absolute POSIX or Windows paths: `/home/me/repo/` → `/home/me/repo`, `C:\work\repo` → `c:/work/repo`. */
function fromPath(input: string): string | null {
  const win = /^([a-z]):[\\/]/i.exec(input);
  if (!win && !input.startsWith('/')) return null;
  const body = (win ? input.slice(2) : input).replace(/\\/g, '/');
  const out: string[] = [];
  for (const part of body.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  const path = `/${out.join('/')}`;
  return win ? `${(win[1] ?? '').toLowerCase()}:${path}` : path;
}

/** Already canonical: a host with a dot, then owner/repo. */
function fromCanonical(input: string): string | null {
  const m = /^([^/\s]+)(\/.+)$/.exec(input);
  if (!m) return null;
  const [host, port] = (m[1] ?? '').split(':');
  if (!host?.includes('.')) return null;
  const canonical = hostPath(host, port ?? '', m[2] ?? '', 'https');
  return canonical && canonical.split('/').length >= 3 ? canonical : null;
}
