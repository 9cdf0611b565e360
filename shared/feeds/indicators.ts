/**
 * Threat indicator lists a tenant adds, normalised to one shape: STIX 2.1 (and 2.0) bundles, whose
 * indicator objects carry STIX patterns (`[ipv4-addr:value = '198.51.100.1']`), and CSV, either
 * the plain `type,value[,description]` this service documents or MISP's attribute export
 * (`uuid,event_id,category,type,value,comment,to_ids,date`). And lookups by IP and by domain.
 */
import { parseAddress } from '../adapters/ip-address.js';
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, readJson, text } from './feed-document.js';
import { covers, parsePrefix } from './ip-prefix.js';

export const INDICATORS_MAX_BYTES = 16 * 1024 * 1024;
export const INDICATORS_DESCRIPTION =
  'Threat indicators added by the tenant (STIX 2.1 bundle or CSV): IP addresses and networks, domains, URLs, file hashes, e-mail addresses, with validity and labels; looked up by IP and domain.';

export type IndicatorType = 'ip' | 'cidr' | 'domain' | 'url' | 'sha256' | 'sha1' | 'md5' | 'email';

export interface IndicatorRecord {
  /** `<type>|<value>|<origin>`, origin the STIX indicator id or `csv`: kept records are found by type and value (docs/connectors.md). */
  id: string;
  type: IndicatorType;
  /** Normalised: canonical IP or network, lower-case domain, e-mail and hash; the URL as given (refanged). */
  value: string;
  valid_from: string | null;
  valid_until: string | null;
  labels: string[];
  description: string | null;
  /** False for a MISP attribute marked `to_ids=0` (context, not for detection). */
  for_detection: boolean;
  source: { format: 'stix' | 'csv' | 'misp-csv'; object_id: string | null; name: string | null };
  source_url: string;
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;
const HEX = { sha256: 64, sha1: 40, md5: 32 } as const;

/** Undo the usual defanging: `hxxp`, `[.]`, `(.)`, `[:]`, `[@]`. */
const refang = (v: string) =>
  v
    .trim()
    .replace(/^hxxp/i, 'http')
    .replace(/\[\.\]|\(\.\)|\{\.\}/g, '.')
    .replace(/\[:\]/g, ':')
    .replace(/\[@\]/g, '@');

/** A value of a type, normalised, or why not. An IP with a prefix length is a `cidr`. */
export function normaliseIndicator(type: IndicatorType, raw: string): { type: IndicatorType; value: string } | string {
  const v = refang(raw);
  if (type === 'ip' || type === 'cidr') {
    if (v.includes('/')) {
      const p = parsePrefix(v);
      if (!p) return `not an IP network (${JSON.stringify(raw)})`;
      return p.length === (p.version === 4 ? 32 : 128)
        ? { type: 'ip', value: p.text.split('/')[0]! }
        : { type: 'cidr', value: p.text };
    }
    try {
      return { type: 'ip', value: parseAddress(v).text };
    } catch {
      return `not an IP address (${JSON.stringify(raw)})`;
    }
  }
  if (type === 'domain') {
    const d = v.toLowerCase().replace(/\.$/, '');
    return DOMAIN.test(d) ? { type, value: d } : `not a domain name (${JSON.stringify(raw)})`;
  }
  if (type === 'url') {
    try {
      const u = new URL(v);
      return /^(https?|ftp):$/.test(u.protocol)
        ? { type, value: v }
        : `not an http, https or ftp URL (${JSON.stringify(raw)})`;
    } catch {
      return `not a URL (${JSON.stringify(raw)})`;
    }
  }
  if (type === 'email')
    return EMAIL.test(v) ? { type, value: v.toLowerCase() } : `not an e-mail address (${JSON.stringify(raw)})`;
  const h = v.toLowerCase();
  return new RegExp(`^[0-9a-f]{${HEX[type]}}$`).test(h)
    ? { type, value: h }
    : `not a ${type.toUpperCase()} hash (${JSON.stringify(raw)})`;
}

const isoOrNull = (v: unknown): string | null | undefined => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return /^\d{4}-\d{2}-\d{2}T/.test(v) && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
};

// --- STIX ----------------------------------------------------------------------------------------

/** The STIX object paths kept, and the type each gives. */
const STIX_PATHS: Record<string, IndicatorType> = {
  'ipv4-addr:value': 'ip',
  'ipv6-addr:value': 'ip',
  'domain-name:value': 'domain',
  'url:value': 'url',
  'email-addr:value': 'email',
  "file:hashes.'SHA-256'": 'sha256',
  'file:hashes.SHA256': 'sha256',
  "file:hashes.'SHA-1'": 'sha1',
  'file:hashes.SHA1': 'sha1',
  'file:hashes.MD5': 'md5',
  'file:hashes.md5': 'md5',
};

/**
 * The (path, value) pairs of a STIX pattern that is a disjunction of equalities, e.g.
 * `[domain-name:value = 'a.example' OR ipv4-addr:value = '198.51.100.7']` or
 * `[url:value = 'x'] OR [url:value = 'y']`: each is an indicator on its own. Anything else (AND,
 * MATCHES, LIKE, !=, qualifiers such as WITHIN or REPEATS) is not a list of values: a reason.
 */
export function stixPatternValues(pattern: string): { path: string; value: string }[] | string {
  const out: { path: string; value: string }[] = [];
  let s = pattern.trim();
  let expectOperand = true;
  while (s.length > 0) {
    if (expectOperand) {
      const m =
        /^\[?\s*([a-z0-9-]+:[A-Za-z0-9_.'-]+(?:\[\*\])?(?:\.[A-Za-z0-9_'-]+)*)\s*(=|!=|MATCHES|LIKE|IN|>|<|>=|<=|ISSUBSET|ISSUPERSET)\s*'((?:[^'\\]|\\.)*)'\s*\]?/.exec(
          s,
        );
      if (!m)
        return `pattern is not a comparison of an object path with a quoted value (${JSON.stringify(s.slice(0, 60))})`;
      if (m[2] !== '=') return `pattern uses ${m[2]}, not an equality: not a list of values`;
      out.push({ path: m[1]!, value: m[3]!.replace(/\\(.)/g, '$1') });
      s = s.slice(m[0].length).trim();
      expectOperand = false;
    } else {
      const m = /^(OR|AND|FOLLOWEDBY|WITHIN|START|REPEATS)\b/.exec(s);
      if (!m) return `pattern has something after a comparison that is not OR (${JSON.stringify(s.slice(0, 40))})`;
      if (m[1] !== 'OR') return `pattern combines values with ${m[1]}: not a list of values each an indicator alone`;
      s = s.slice(2).trim();
      expectOperand = true;
    }
  }
  return expectOperand ? 'pattern ends with OR' : out;
}

export function parseStixIndicators(body: string, sourceUrl: string): FeedParse<IndicatorRecord> {
  const FEED = 'STIX bundle';
  const doc = readJson(body, FEED);
  if (!isObject(doc) || doc.type !== 'bundle' || !Array.isArray(doc.objects))
    throw new FeedFormatError(FEED, 'expected a STIX bundle ({"type":"bundle","objects":[...]})');
  const records: IndicatorRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  (doc.objects as unknown[]).forEach((o, i) => {
    if (!isObject(o) || o.type !== 'indicator') return; // malware, relationship, identity...: not indicators
    const sid = text(o.id);
    if (!sid || !/^indicator--[0-9a-f-]{36}$/.test(sid))
      return problems.push({
        entry: i,
        id: null,
        reason: `indicator id is not indicator--<uuid> (${JSON.stringify(o.id)})`,
      });
    if (o.revoked === true) return problems.push({ entry: i, id: sid, reason: 'revoked by its producer' });
    // STIX 2.1 names the pattern language; 2.0 had only STIX patterns and no pattern_type.
    if (o.pattern_type !== undefined && o.pattern_type !== 'stix')
      return problems.push({
        entry: i,
        id: sid,
        reason: `pattern_type ${JSON.stringify(o.pattern_type)} is not read (only STIX patterns)`,
      });
    if (typeof o.pattern !== 'string') return problems.push({ entry: i, id: sid, reason: 'no pattern' });
    const from = isoOrNull(o.valid_from);
    const until = isoOrNull(o.valid_until);
    if (!from)
      return problems.push({
        entry: i,
        id: sid,
        reason: `valid_from is not a timestamp (${JSON.stringify(o.valid_from)})`,
      });
    if (until === undefined)
      return problems.push({
        entry: i,
        id: sid,
        reason: `valid_until is not a timestamp (${JSON.stringify(o.valid_until)})`,
      });
    const pairs = stixPatternValues(o.pattern);
    if (typeof pairs === 'string') return problems.push({ entry: i, id: sid, reason: pairs });
    const labels = [
      ...(Array.isArray(o.indicator_types) ? (o.indicator_types as unknown[]) : []),
      ...(Array.isArray(o.labels) ? (o.labels as unknown[]) : []),
    ].filter((l): l is string => typeof l === 'string');
    const kept: IndicatorRecord[] = [];
    for (const { path, value } of pairs) {
      const type = STIX_PATHS[path];
      if (!type)
        return problems.push({
          entry: i,
          id: sid,
          reason: `object path ${path} is not kept (IPs, domains, URLs, e-mail addresses and file hashes are)`,
        });
      const n = normaliseIndicator(type, value);
      if (typeof n === 'string') return problems.push({ entry: i, id: sid, reason: n });
      const id = `${n.type}|${n.value}|${sid}`;
      if (seen.has(id)) continue; // the same value twice in one pattern
      seen.add(id);
      kept.push({
        id,
        ...n,
        valid_from: from,
        valid_until: until,
        labels: [...new Set(labels)],
        description: text(o.description),
        for_detection: true,
        source: { format: 'stix', object_id: sid, name: text(o.name) },
        source_url: sourceUrl,
      });
    }
    records.push(...kept);
  });
  return { records, problems };
}

// --- CSV -----------------------------------------------------------------------------------------

/** RFC 4180 rows: quoted fields may hold commas, quotes (doubled) and line breaks. */
export function csvRows(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0]!.trim() === ''));
}

/** CSV and MISP type names to the kept types. */
const CSV_TYPES: Record<string, IndicatorType> = {
  ip: 'ip',
  ipv4: 'ip',
  ipv6: 'ip',
  'ip-dst': 'ip',
  'ip-src': 'ip',
  cidr: 'cidr',
  domain: 'domain',
  hostname: 'domain',
  'domain-name': 'domain',
  url: 'url',
  uri: 'url',
  link: 'url',
  sha256: 'sha256',
  sha1: 'sha1',
  md5: 'md5',
  email: 'email',
  'email-src': 'email',
  'email-dst': 'email',
};

/**
 * A CSV list with a header row naming at least `type` and `value`. Optional columns, by name:
 * `description` (MISP: `comment`), `valid_from` (MISP: `date`, YYYYMMDD), `valid_until`, `labels`
 * (`;`-separated; MISP's `category` is kept as a label), `to_ids` (MISP). A body without that header
 * is not such a list (FeedFormatError).
 */
export function parseCsvIndicators(body: string, sourceUrl: string): FeedParse<IndicatorRecord> {
  const FEED = 'Indicator CSV';
  const start = body.trimStart();
  if (start.startsWith('<') || start.startsWith('{') || start.startsWith('['))
    throw new FeedFormatError(FEED, `the body is not CSV (starts "${start.slice(0, 32)}")`);
  const rows = csvRows(body.replace(/^\uFEFF/, ''));
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const col = (...names: string[]) => names.map((n) => header.indexOf(n)).find((i) => i >= 0) ?? -1;
  const [t, v] = [col('type'), col('value')];
  if (t < 0 || v < 0)
    throw new FeedFormatError(
      FEED,
      `the first row is not a header naming "type" and "value" columns (${JSON.stringify((rows[0] ?? []).slice(0, 8))})`,
    );
  const misp = header.includes('uuid') && header.includes('event_id') && header.includes('to_ids');
  const [d, from, until, labelsCol, cat, toIds] = [
    col('description', 'comment'),
    col('valid_from', 'date'),
    col('valid_until'),
    col('labels', 'tags'),
    col('category'),
    col('to_ids'),
  ];
  const records: IndicatorRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  rows.slice(1).forEach((r, k) => {
    const entry = k + 1;
    const cell = (i: number) => (i >= 0 ? (r[i] ?? '').trim() : '');
    const rawType = cell(t).toLowerCase();
    const type = CSV_TYPES[rawType];
    if (!type)
      return problems.push({
        entry,
        id: null,
        reason: `type ${JSON.stringify(cell(t))} is not kept (ip, cidr, domain, url, sha256, sha1, md5, email)`,
      });
    const n = normaliseIndicator(type, cell(v));
    if (typeof n === 'string') return problems.push({ entry, id: null, reason: n });
    const id = `${n.type}|${n.value}|csv`;
    let validFrom: string | null = null;
    const f = cell(from);
    if (f) {
      const iso = /^\d{8}$/.test(f) ? `${f.slice(0, 4)}-${f.slice(4, 6)}-${f.slice(6)}T00:00:00Z` : f;
      const x = isoOrNull(iso);
      if (!x) return problems.push({ entry, id, reason: `valid_from is not a date (${JSON.stringify(f)})` });
      validFrom = x;
    }
    const u = isoOrNull(cell(until) || null);
    if (u === undefined)
      return problems.push({ entry, id, reason: `valid_until is not a timestamp (${JSON.stringify(cell(until))})` });
    if (seen.has(id)) return problems.push({ entry, id, reason: 'the same indicator twice' });
    seen.add(id);
    const labels = [...cell(labelsCol).split(';'), cell(cat)].map((l) => l.trim()).filter(Boolean);
    records.push({
      id,
      ...n,
      valid_from: validFrom,
      valid_until: u,
      labels,
      description: cell(d) || null,
      for_detection: cell(toIds) !== '0',
      source: { format: misp ? 'misp-csv' : 'csv', object_id: misp ? cell(col('uuid')) || null : null, name: null },
      source_url: sourceUrl,
    });
  });
  return { records, problems };
}

// --- Lookups -------------------------------------------------------------------------------------

export interface IndicatorIndex {
  size: number;
  /** Indicators naming this IP, or a network containing it. */
  byIp(ip: string): IndicatorRecord[];
  /** Indicators naming this domain or a parent of it (`evil.example` matches `a.evil.example`). */
  byDomain(domain: string): IndicatorRecord[];
  /** Exact value of any type (hash, URL, e-mail), normalised as the parser does. */
  byValue(type: IndicatorType, value: string): IndicatorRecord[];
}

/** An index of the indicators; with `at`, only those valid then (valid_from passed, valid_until not yet). */
export function indicatorIndex(records: readonly IndicatorRecord[], at?: Date): IndicatorIndex {
  const now = at?.getTime();
  const live = records.filter(
    (r) =>
      now === undefined ||
      ((!r.valid_from || Date.parse(r.valid_from) <= now) && (!r.valid_until || Date.parse(r.valid_until) > now)),
  );
  const byKey = new Map<string, IndicatorRecord[]>();
  for (const r of live) byKey.set(`${r.type}|${r.value}`, [...(byKey.get(`${r.type}|${r.value}`) ?? []), r]);
  const cidrs = live.filter((r) => r.type === 'cidr').map((r) => ({ r, p: parsePrefix(r.value)! }));
  return {
    size: live.length,
    byIp(ip) {
      const n = normaliseIndicator('ip', ip);
      if (typeof n === 'string' || n.type !== 'ip') return [];
      const host = parsePrefix(`${n.value}/${n.value.includes(':') ? 128 : 32}`)!;
      return [...(byKey.get(`ip|${n.value}`) ?? []), ...cidrs.filter((c) => covers(c.p, host)).map((c) => c.r)];
    },
    byDomain(domain) {
      const n = normaliseIndicator('domain', domain);
      if (typeof n === 'string') return [];
      const labels = n.value.split('.');
      return labels.slice(0, -1).flatMap((_, i) => byKey.get(`domain|${labels.slice(i).join('.')}`) ?? []);
    },
    byValue(type, value) {
      const n = normaliseIndicator(type, value);
      return typeof n === 'string' ? [] : (byKey.get(`${n.type}|${n.value}`) ?? []);
    },
  };
}
