/**
 * Credentials in URLs (docs/architecture.md, 18): a user name and password (`https://user:pass@host`)
 * and the values of query parameters named like secrets (`token`, `key`, `apikey`, `api_key`,
 * `access_token`, `sig`, `signature`, `secret`, `password`, ...: `isSecretParam`). A URL a tenant
 * gives is split in two: its shown form, where each of them is the placeholder `REDACTED`
 * (`https://REDACTED:REDACTED@feeds.example/x.csv?format=csv&token=REDACTED`), kept in the clear
 * and answered, audited and logged; and its secret parts, kept sealed. Joining them again gives
 * the URL that is called, byte for byte.
 *
 * A URL sent back with a placeholder keeps the secret stored at its place (`keepUrlSecrets`), so
 * a client may send back what it read. Every log line and audit entry passes through
 * `redactSecretsIn` as well, which redacts any URL in any text.
 */

/** What stands in a shown URL for each secret part. */
export const REDACTED = 'REDACTED';

/** The secret parts of a URL, as written in it (percent-encoded). */
export interface UrlSecrets {
  username?: string;
  password?: string;
  /** The secret query parameters, in order: `[name, value]` as written. */
  query?: [string, string][];
}

export interface SplitUrl {
  /** The shown form: every secret part replaced by `REDACTED`. */
  url: string;
  /** Null when the URL carries none. */
  secrets: UrlSecrets | null;
}

/** Normalised names (lower case, no `-`, `_` or `.`) that are credentials wherever they appear in a name. */
const SECRET_WORDS = ['token', 'secret', 'passw', 'signature', 'credential', 'apikey', 'accesskey', 'privatekey'];
/** Normalised names that are credentials on their own. */
const SECRET_NAMES = new Set(['key', 'sig', 'pwd', 'pass', 'auth', 'sessionid']);

/** Whether a query parameter of this name carries a credential (`token`, `api_key`, `X-Amz-Signature`, `sig`, ...). */
export function isSecretParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judged as written.
  }
  const n = decoded.toLowerCase().replace(/[-_.\s]/g, '');
  return SECRET_NAMES.has(n) || n.endsWith('key') || n.endsWith('sig') || SECRET_WORDS.some((w) => n.includes(w));
}

/** The query's pairs as written (`name=value`, or a bare `name`), without the `?`. */
const pairsOf = (search: string): string[] => (search.length > 1 ? search.slice(1).split('&') : []);

const nameOf = (pair: string) => {
  const eq = pair.indexOf('=');
  return eq < 0 ? pair : pair.slice(0, eq);
};
const valueOf = (pair: string): string | null => {
  const eq = pair.indexOf('=');
  return eq < 0 ? null : pair.slice(eq + 1);
};

const parsed = (raw: string): URL | null => {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
};

/** The URL's shown form and its secret parts; a text that is no URL is returned as it is, without secrets. */
export function splitUrl(raw: string): SplitUrl {
  const url = parsed(raw);
  if (!url) return { url: raw, secrets: null };
  const secrets: UrlSecrets = {};
  if (url.username) {
    secrets.username = url.username;
    url.username = REDACTED;
  }
  if (url.password) {
    secrets.password = url.password;
    url.password = REDACTED;
  }
  const query: [string, string][] = [];
  const pairs = pairsOf(url.search).map((pair) => {
    const name = nameOf(pair);
    const value = valueOf(pair);
    if (!value || !isSecretParam(name)) return pair;
    query.push([name, value]);
    return `${name}=${REDACTED}`;
  });
  if (query.length > 0) {
    secrets.query = query;
    url.search = `?${pairs.join('&')}`;
  }
  return Object.keys(secrets).length === 0 ? { url: raw, secrets: null } : { url: url.href, secrets };
}

/** The URL as shown: its credentials `REDACTED`. */
export const redactUrl = (raw: string): string => splitUrl(raw).url;

/** The places of a URL where a placeholder stands: the user name, the password, each secret parameter. */
function placeholdersOf(url: URL): { username: boolean; password: boolean; query: string[] } {
  return {
    username: url.username === REDACTED,
    password: url.password === REDACTED,
    query: pairsOf(url.search)
      .filter((p) => valueOf(p) === REDACTED && isSecretParam(nameOf(p)))
      .map(nameOf),
  };
}

/** Whether a (shown) URL has a placeholder where a secret belongs. */
export function hasPlaceholders(raw: string): boolean {
  const url = parsed(raw);
  if (!url) return false;
  const p = placeholdersOf(url);
  return p.username || p.password || p.query.length > 0;
}

/** Whether a URL carries a credential of its own, not only placeholders for kept ones. */
export function givesCredentials(raw: string): boolean {
  const { secrets } = splitUrl(raw);
  if (!secrets) return false;
  const parts = [secrets.username, secrets.password, ...(secrets.query ?? []).map(([, value]) => value)];
  return parts.some((part) => part !== undefined && part !== REDACTED);
}

/** The URL called: the shown form with each placeholder replaced by its secret part again. */
export function joinUrl(shown: string, secrets: UrlSecrets | null): string {
  if (!secrets) return shown;
  const url = new URL(shown);
  if (secrets.username !== undefined) url.username = secrets.username;
  if (secrets.password !== undefined) url.password = secrets.password;
  const query = [...(secrets.query ?? [])];
  if (query.length > 0) {
    url.search = `?${pairsOf(url.search)
      .map((pair) => {
        const next = query[0];
        if (!next || valueOf(pair) !== REDACTED || nameOf(pair) !== next[0]) return pair;
        query.shift();
        return `${next[0]}=${next[1]}`;
      })
      .join('&')}`;
  }
  if (query.length > 0) throw new Error('the URL has fewer places for secrets than were kept');
  return url.href;
}

/** Why a URL's placeholder cannot be given its secret back: the caller answers 422. */
export class UrlPlaceholderError extends Error {}

/**
 * The URL to keep when a client sends `given`, which may carry placeholders where `stored` (the
 * URL kept so far, in full; null when there is none) has secrets: each placeholder takes the
 * secret of the stored URL at the same place (the user name, the password, the nth parameter of
 * that name). Only for the same origin: a kept credential never goes to another host. Throws
 * UrlPlaceholderError when a placeholder has no secret to take.
 */
export function keepUrlSecrets(given: string, stored: string | null): string {
  const url = parsed(given);
  if (!url) return given;
  const wanted = placeholdersOf(url);
  if (!wanted.username && !wanted.password && wanted.query.length === 0) return given;
  const kept = stored ? splitUrl(stored) : null;
  if (!kept?.secrets)
    throw new UrlPlaceholderError(`${REDACTED} stands for a credential kept before, and there is none here: send it`);
  if (new URL(stored!).origin !== url.origin)
    throw new UrlPlaceholderError(
      `${REDACTED} keeps a credential for the address it was given with only: send it again for a new host`,
    );
  const secrets = kept.secrets;
  const missing = (what: string) =>
    new UrlPlaceholderError(`${REDACTED} stands for the ${what} kept before, and there is none: send it`);
  if (wanted.username) {
    if (secrets.username === undefined) throw missing('user name');
    url.username = secrets.username;
  }
  if (wanted.password) {
    if (secrets.password === undefined) throw missing('password');
    url.password = secrets.password;
  }
  if (wanted.query.length > 0) {
    const seen = new Map<string, number>();
    url.search = `?${pairsOf(url.search)
      .map((pair) => {
        const name = nameOf(pair);
        if (valueOf(pair) !== REDACTED || !isSecretParam(name)) return pair;
        const nth = seen.get(name) ?? 0;
        seen.set(name, nth + 1);
        const value = (secrets.query ?? []).filter(([n]) => n === name)[nth]?.[1];
        if (value === undefined) throw missing(`parameter ${name}`);
        return `${name}=${value}`;
      })
      .join('&')}`;
  }
  return url.href;
}

/** A URL in a text: a scheme, `://`, and what follows up to a space, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`\\]+/gi;

/** The text with every URL in it redacted. */
export function redactUrlsIn(text: string): string {
  return text.includes('://') ? text.replace(URL_IN_TEXT, redactUrl) : text;
}

/** The value with every URL in every string of it redacted (objects and arrays copied, not changed). */
export function redactSecretsIn<T>(value: T): T {
  if (typeof value === 'string') return redactUrlsIn(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactSecretsIn(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactSecretsIn(v)])) as T;
  }
  return value;
}
