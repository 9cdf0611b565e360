/**
 * US Department of State travel advisories (docs/feeds.md): the RSS 2.0 feed of every country's
 * advisory, one item each, read into one advisory record per country (ISO 3166-1 alpha-2).
 *
 * The country is read from the item's address, which names the ISO alpha-3 code
 * (`…/destination.prk.html`), not from its `Country-Tag` category, which is a FIPS 10-4 code
 * (`KN` North Korea, `BY` Burundi, `MO` Morocco, `UK` the United Kingdom): read as ISO those name
 * other countries. An item whose address carries no alpha-3 code (older pages,
 * `cuba-travel-advisory.html`) is a problem, not a guess.
 *
 * The feed is a flat list of simple items, so it is read by scanning its `<item>` elements rather
 * than with an XML library: the poller would otherwise carry one (docs/connectors.md).
 */
import { FeedFormatError, type FeedParse, type FeedProblem } from './feed-document.js';
import {
  advisoryId,
  withManifest,
  type AdvisoryLevel,
  type AdvisoryRecord,
  type ManifestRecord,
} from './geopolitical-records.js';
import { alpha2OfAlpha3 } from '../vocabulary/country-alpha3.js';
import { decodeEntities, summaryOf } from './html-text.js';

export const STATE_DEPT_ADVISORIES_URL = 'https://travel.state.gov/_res/rss/TAsTWs.xml';
export const STATE_DEPT_ADVISORIES_DESCRIPTION =
  'US Department of State travel advisories (RSS): one level 1 to 4 per country';

const FEED = 'State Department advisories';
/** An element's text: CDATA as it is, other text with its entities decoded. */
function elementText(raw: string): string {
  return raw
    .replace(
      /<!\[CDATA\[([\s\S]*?)\]\]>|([^<]+)/g,
      (_w, cdata: string | undefined, plain: string | undefined) => cdata ?? decodeEntities(plain ?? ''),
    )
    .trim();
}

interface RssItem {
  title: string | null;
  link: string | null;
  pubDate: string | null;
  description: string | null;
  categories: { domain: string | null; text: string }[];
}

function firstElement(item: string, name: string): string | null {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(item);
  return m ? elementText(m[1]!) || null : null;
}

function rssItems(body: string): RssItem[] {
  return [...body.matchAll(/<item(?:\s[^>]*)?>([\s\S]*?)<\/item>/g)].map(([, item]) => ({
    title: firstElement(item!, 'title'),
    link: firstElement(item!, 'link'),
    pubDate: firstElement(item!, 'pubDate'),
    description: firstElement(item!, 'description'),
    categories: [...item!.matchAll(/<category(\s[^>]*)?>([\s\S]*?)<\/category>/g)].map(([, attrs, text]) => ({
      domain: /domain="([^"]*)"/.exec(attrs ?? '')?.[1] ?? null,
      text: elementText(text!),
    })),
  }));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An RFC 822 date (`Tue, 15 Sep 2026`, a time and zone optional: UTC without) as ISO UTC, or null. */
export function rfc822Utc(date: string): string | null {
  const m =
    /^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?(?:\s*(GMT|UTC?|Z|[+-]\d{4}))?)?$/.exec(
      date.trim(),
    );
  const month = m ? MONTHS.indexOf(m[2]!.slice(0, 1).toUpperCase() + m[2]!.slice(1).toLowerCase()) : -1;
  if (!m || month < 0) return null;
  const [year, day] = [Number(m[3]), Number(m[1])];
  if (new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return null;
  const zone =
    m[7] && /^[+-]\d{4}$/.test(m[7])
      ? (m[7][0] === '-' ? 1 : -1) * (Number(m[7].slice(1, 3)) * 60 + Number(m[7].slice(3)))
      : 0;
  return new Date(
    Date.UTC(year, month, day, Number(m[4] ?? 0), Number(m[5] ?? 0) + zone, Number(m[6] ?? 0)),
  ).toISOString();
}

const levelIn = (s: string | null | undefined): AdvisoryLevel | null => {
  const m = s ? /Level ([1-4])\s*:/.exec(s) : null;
  return m ? (Number(m[1]) as AdvisoryLevel) : null;
};

export function parseStateDeptAdvisories(body: string, sourceUrl: string): FeedParse<AdvisoryRecord | ManifestRecord> {
  const start = body.trimStart();
  if (!start.startsWith('<')) throw new FeedFormatError(FEED, `the body is not XML (starts "${start.slice(0, 32)}")`);
  if (!/<rss[\s>]/.test(start.slice(0, 2000)) || !/<channel[\s>]/.test(body))
    throw new FeedFormatError(FEED, `the body is not an RSS feed (starts "${start.slice(0, 48)}")`);
  const records: AdvisoryRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  rssItems(body).forEach((item, entry) => {
    const alpha3 = item.link ? (/destination\.([a-z]{3})\.html/i.exec(item.link)?.[1] ?? null) : null;
    const country = alpha3 ? alpha2OfAlpha3(alpha3) : null;
    const tag = item.categories.find((c) => c.domain === 'Country-Tag')?.text ?? null;
    if (!country) {
      return problems.push({
        entry,
        id: null,
        reason: alpha3
          ? `the address names "${alpha3}", not an ISO 3166 alpha-3 code`
          : `the address names no ISO country (${item.title ?? 'no title'}; its FIPS tag ${tag ?? 'none'} is not read as ISO)`,
      });
    }
    const id = advisoryId(country);
    const level = levelIn(item.categories.find((c) => c.domain === 'Threat-Level')?.text) ?? levelIn(item.title);
    if (!level) return problems.push({ entry, id, reason: 'no level 1 to 4 in its Threat-Level category or title' });
    if (!item.title) return problems.push({ entry, id, reason: 'no title' });
    const updated = item.pubDate ? rfc822Utc(item.pubDate) : null;
    if (item.pubDate && !updated)
      return problems.push({ entry, id, reason: `pubDate is not a date (${JSON.stringify(item.pubDate)})` });
    if (seen.has(id)) return problems.push({ entry, id, reason: 'a second advisory for the same country' });
    seen.add(id);
    records.push({
      id,
      kind: 'advisory',
      country,
      level,
      title: item.title,
      summary: summaryOf(item.description),
      updated,
      url: item.link,
      source: 'us-state-dept',
      source_url: sourceUrl,
    });
  });
  return { records: withManifest(records), problems };
}
