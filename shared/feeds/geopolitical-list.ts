/**
 * Gatehouse's own format for a tenant's geopolitical list (docs/feeds.md, "A list of your own"):
 * country-level advisory levels and sanctions programmes from the tenant's chosen source (a risk
 * consultancy, an internal security team, a copy of another government's list), as JSON or CSV.
 *
 * JSON: an array of entries, or `{"entries": [...]}`; CSV: a header row naming the columns. Each
 * entry: `country` (ISO 3166-1 alpha-2), `level` (1 to 4) and/or `programme` (a sanctions
 * programme's name), optional `summary`, `updated` (RFC 3339 or YYYY-MM-DD) and `url` (http or https).
 */
import { FeedFormatError, isObject, readJson, type FeedParse, type FeedProblem } from './feed-document.js';
import { csvRows } from './indicators.js';
import {
  advisoryId,
  programmeId,
  withManifest,
  type AdvisoryLevel,
  type AdvisoryRecord,
  type ManifestRecord,
  type SanctionsProgrammeRecord,
} from './geopolitical-records.js';
import { COUNTRY_CODES } from '../vocabulary/countries.js';

export const GEOPOLITICAL_LIST_DESCRIPTION =
  'Your own geopolitical list (JSON or CSV: country, level 1-4 and/or programme, summary, updated, url)';

const FEED = 'Geopolitical list';
const MAX_SUMMARY = 2000;
const MAX_PROGRAMME = 100;

export type GeopoliticalListRecord = AdvisoryRecord | SanctionsProgrammeRecord | ManifestRecord;

type Entry = { country: unknown; level: unknown; programme: unknown; summary: unknown; updated: unknown; url: unknown };

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

function updatedOf(v: unknown): string | null | undefined {
  const s = str(v);
  if (s === null) return null;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(iso)) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function urlOf(v: unknown): string | null | undefined {
  const s = str(v);
  if (s === null) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function levelOf(v: unknown): AdvisoryLevel | null | undefined {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[1-4]\s*$/.test(v) ? Number(v) : NaN;
  return n === 1 || n === 2 || n === 3 || n === 4 ? n : undefined;
}

function entriesOf(body: string): Entry[] {
  const start = body.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    const doc = readJson(start, FEED);
    const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.entries) ? doc.entries : null;
    if (!list) throw new FeedFormatError(FEED, 'the JSON is neither an array of entries nor an object with "entries"');
    return list.map((e) =>
      isObject(e)
        ? {
            country: e.country,
            level: e.level,
            programme: e.programme,
            summary: e.summary,
            updated: e.updated,
            url: e.url,
          }
        : {
            country: undefined,
            level: undefined,
            programme: undefined,
            summary: undefined,
            updated: undefined,
            url: undefined,
          },
    );
  }
  if (start.startsWith('<'))
    throw new FeedFormatError(FEED, `the body is HTML or XML, not JSON or CSV (starts "${start.slice(0, 32)}")`);
  const rows = csvRows(start);
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  if (col('country') < 0 || (col('level') < 0 && col('programme') < 0)) {
    throw new FeedFormatError(
      FEED,
      `the first row is not a header naming "country" and "level" or "programme" (${JSON.stringify((rows[0] ?? []).slice(0, 6))})`,
    );
  }
  const cell = (r: string[], name: string) => (col(name) >= 0 ? r[col(name)] : undefined);
  return rows.slice(1).map((r) => ({
    country: cell(r, 'country'),
    level: cell(r, 'level'),
    programme: cell(r, 'programme'),
    summary: cell(r, 'summary'),
    updated: cell(r, 'updated'),
    url: cell(r, 'url'),
  }));
}

export function parseGeopoliticalList(body: string, sourceUrl: string): FeedParse<GeopoliticalListRecord> {
  const entries = entriesOf(body);
  const csv = !/^\s*[[{]/.test(body.replace(/^\uFEFF/, ''));
  const records: (AdvisoryRecord | SanctionsProgrammeRecord)[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  entries.forEach((e, k) => {
    const entry = csv ? k + 1 : k;
    const country = str(e.country)?.toUpperCase() ?? null;
    if (!country || !COUNTRY_CODES.has(country))
      return problems.push({
        entry,
        id: null,
        reason: `country ${JSON.stringify(e.country ?? null)} is not an ISO 3166-1 alpha-2 code`,
      });
    const level = levelOf(e.level);
    if (level === undefined)
      return problems.push({
        entry,
        id: advisoryId(country),
        reason: `level ${JSON.stringify(e.level)} is not 1, 2, 3 or 4`,
      });
    const programme = str(e.programme);
    if (programme !== null && programme.length > MAX_PROGRAMME)
      return problems.push({ entry, id: null, reason: `programme is longer than ${MAX_PROGRAMME} characters` });
    if (level === null && programme === null)
      return problems.push({ entry, id: null, reason: 'neither a level nor a programme' });
    const updated = updatedOf(e.updated);
    if (updated === undefined)
      return problems.push({
        entry,
        id: null,
        reason: `updated ${JSON.stringify(e.updated)} is not RFC 3339 or YYYY-MM-DD`,
      });
    const url = urlOf(e.url);
    if (url === undefined)
      return problems.push({ entry, id: null, reason: `url ${JSON.stringify(e.url)} is not an http or https address` });
    const summary = str(e.summary)?.slice(0, MAX_SUMMARY) ?? null;
    const ids = [
      level !== null ? advisoryId(country) : null,
      programme !== null ? programmeId(country, programme) : null,
    ].filter((i): i is string => i !== null);
    const twice = ids.find((i) => seen.has(i));
    if (twice)
      return problems.push({ entry, id: twice, reason: 'the same country (level) or country and programme twice' });
    ids.forEach((i) => seen.add(i));
    if (level !== null) {
      records.push({
        id: advisoryId(country),
        kind: 'advisory',
        country,
        level,
        title: `Level ${level}`,
        summary,
        updated,
        url,
        source: 'list',
        source_url: sourceUrl,
      });
    }
    if (programme !== null) {
      records.push({
        id: programmeId(country, programme),
        kind: 'sanctions_programme',
        country,
        programme,
        summary,
        listed: null,
        updated,
        url,
        source: 'list',
        source_url: sourceUrl,
      });
    }
  });
  return { records: withManifest(records), problems };
}
