/**
 * Global Affairs Canada's travel advice for one country (docs/feeds.md): the JSON document
 * `https://data.international.gc.ca/travel-voyage/cta-cap-<iso>.json`, keyed by ISO 3166-1
 * alpha-2 (`country-iso`), its risk level `advisory-state` 0 to 3 (take normal security
 * precautions, exercise a high degree of caution, avoid non-essential travel, avoid all travel),
 * read as levels 1 to 4. One document is one country: a connector polls the country it names.
 *
 * Canada's index of every country (`index-updated.json`, the same fields keyed by country) is not
 * read: no real capture of it was found to test a parser on.
 */
import { FeedFormatError, isObject, readJson, text, type FeedParse, type FeedProblem } from './feed-document.js';
import {
  advisoryId,
  withManifest,
  type AdvisoryLevel,
  type AdvisoryRecord,
  type ManifestRecord,
} from './geopolitical-records.js';
import { summaryOf } from './html-text.js';
import { COUNTRY_CODES } from '../vocabulary/countries.js';

export const CANADA_ADVISORY_DESCRIPTION =
  "Global Affairs Canada's travel advice for one country (JSON): a level 1 to 4";
/** Where Canada's page of a country is, by the document's `url-slug`. */
const PAGE_BASE = 'https://travel.gc.ca/destinations/';

const FEED = 'Canada travel advice';
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Ottawa's zones as the documents name them, hours from UTC. */
const ZONES: Record<string, number> = { EDT: -4, EST: -5 };

/** `September 24, 2026 08:53 EDT` (Canada's `friendly-date`) as ISO UTC, or null. */
export function friendlyDateUtc(date: string): string | null {
  const m = /^([A-Z][a-z]+) (\d{1,2}), (\d{4}) (\d{2}):(\d{2}) ([A-Z]{3})$/.exec(date.trim());
  const month = m ? MONTHS.indexOf(m[1]!) : -1;
  const zone = m ? ZONES[m[6]!] : undefined;
  if (!m || month < 0 || zone === undefined) return null;
  const [year, day] = [Number(m[3]), Number(m[2])];
  if (new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return null;
  return new Date(Date.UTC(year, month, day, Number(m[4]) - zone, Number(m[5]))).toISOString();
}

export function parseCanadaAdvisory(body: string, sourceUrl: string): FeedParse<AdvisoryRecord | ManifestRecord> {
  const doc = readJson(body, FEED);
  const data = isObject(doc) ? doc.data : undefined;
  if (!isObject(data) || typeof data['country-iso'] !== 'string') {
    throw new FeedFormatError(
      FEED,
      'not a country document: no "data" object with a "country-iso" (the index of every country is not read)',
    );
  }
  const problems: FeedProblem[] = [];
  const country = data['country-iso'].toUpperCase();
  const eng = isObject(data.eng) ? data.eng : {};
  const state = data['advisory-state'];
  const name = text(eng.name);
  const advice = text(eng['advisory-text']);
  const friendly = text(eng['friendly-date']);
  const updated = friendly ? friendlyDateUtc(friendly) : null;
  const slug = text(eng['url-slug']);
  const reason = !COUNTRY_CODES.has(country)
    ? `country-iso ${JSON.stringify(data['country-iso'])} is not an ISO 3166-1 alpha-2 code`
    : state !== 0 && state !== 1 && state !== 2 && state !== 3
      ? `advisory-state is not 0, 1, 2 or 3 (${JSON.stringify(state ?? null)})`
      : !name || !advice
        ? 'no English name or advisory text'
        : friendly && !updated
          ? `friendly-date is not a date (${JSON.stringify(friendly)})`
          : null;
  if (reason) {
    problems.push({ entry: 0, id: COUNTRY_CODES.has(country) ? advisoryId(country) : null, reason });
    return { records: withManifest<AdvisoryRecord>([]), problems };
  }
  const regional =
    data['has-regional-advisory'] === 1 ? ' (with regional advisories: some areas are at a higher level)' : '';
  const record: AdvisoryRecord = {
    id: advisoryId(country),
    kind: 'advisory',
    country,
    level: ((state as number) + 1) as AdvisoryLevel,
    title: `${name} - ${advice}${regional}`,
    summary: summaryOf(text(eng.advisories)),
    updated,
    url: slug ? `${PAGE_BASE}${encodeURIComponent(slug)}` : null,
    source: 'ca-gac',
    source_url: sourceUrl,
  };
  return { records: withManifest([record]), problems };
}
