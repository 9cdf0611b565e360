/**
 * One poll of a public feed (issue 18; docs/feeds.md): the document fetched through the outbound
 * guard (no private address, no redirect, bounded in time and in bytes), checked to be a success
 * of the feed's format, and parsed by the feed's own parser into records with stable ids (a
 * re-poll gives the same ids, so storing them again stores nothing twice) and the problems of the
 * entries it skipped. It stores nothing: the connectors keep the records and the status.
 *
 * A poll never throws for the feed's faults: an unreachable server, a refusal, an error status, a
 * document cut at its bound or not of the format is a `failed` outcome saying why, as a
 * connector's status shows it.
 */
import { getOutbound, type OutboundPolicy } from '../../adapters/outbound.js';
import { parseCisaKev } from '../../feeds/cisa-kev.js';
import { FeedFormatError, type FeedProblem } from '../../feeds/feed-document.js';
import { parseSwpcKp } from '../../feeds/swpc-kp.js';
import { parseSwpcSolarWind } from '../../feeds/swpc-solar-wind.js';
import { parseGdacsEvents } from '../../feeds/gdacs-events.js';
import { parseCsvIndicators, parseStixIndicators } from '../../feeds/indicators.js';
import { parseUsgsQuakes } from '../../feeds/usgs-quakes.js';
import { parseStateDeptAdvisories } from '../../feeds/state-dept-advisories.js';
import { parseOfacSdn } from '../../feeds/ofac-sdn.js';
import { parseCanadaAdvisory } from '../../feeds/canada-advisory.js';
import { parseGeopoliticalList } from '../../feeds/geopolitical-list.js';
import { FEED_CATALOG, type FeedEntry } from './feed-catalog.js';
import type { FeedName } from '../../schemas/integrations.js';

export interface FeedDef {
  /** The public source polled unless the connector names another; null when it must. */
  defaultUrl: string | null;
  accept: string;
  /** At most this much of a document is read; a longer one fails the poll. */
  maxBytes: number;
  parse: (body: string, sourceUrl: string) => { records: { id: string }[]; problems: FeedProblem[] };
}

/** The feeds a connector may poll: their catalogue entry and their parser. */
export const FEEDS = {
  'swpc-kp': { ...FEED_CATALOG['swpc-kp'], parse: parseSwpcKp },
  'swpc-plasma': { ...FEED_CATALOG['swpc-plasma'], parse: parseSwpcSolarWind },
  'swpc-mag': { ...FEED_CATALOG['swpc-mag'], parse: parseSwpcSolarWind },
  'usgs-quakes': { ...FEED_CATALOG['usgs-quakes'], parse: parseUsgsQuakes },
  gdacs: { ...FEED_CATALOG.gdacs, parse: parseGdacsEvents },
  'cisa-kev': { ...FEED_CATALOG['cisa-kev'], parse: parseCisaKev },
  'stix-indicators': { ...FEED_CATALOG['stix-indicators'], parse: parseStixIndicators },
  'csv-indicators': { ...FEED_CATALOG['csv-indicators'], parse: parseCsvIndicators },
  'state-dept-advisories': { ...FEED_CATALOG['state-dept-advisories'], parse: parseStateDeptAdvisories },
  'canada-advisory': { ...FEED_CATALOG['canada-advisory'], parse: parseCanadaAdvisory },
  'ofac-sdn': { ...FEED_CATALOG['ofac-sdn'], parse: parseOfacSdn },
  'geopolitical-list': { ...FEED_CATALOG['geopolitical-list'], parse: parseGeopoliticalList },
} as const satisfies Record<FeedName, FeedDef & FeedEntry>;

export type { FeedName };

/** Some publishers (NWS among them) ask pollers to name themselves. */
const USER_AGENT = 'Gatehouse feed connector';
export type FeedRecordOf<F extends FeedName> = ReturnType<(typeof FEEDS)[F]['parse']>['records'][number];

export type PollOutcome<F extends FeedName> =
  | { status: 'ok'; url: string; httpStatus: number; bytes: number; latencyMs: number; records: FeedRecordOf<F>[]; problems: FeedProblem[] }
  | { status: 'failed'; url: string; httpStatus: number | null; bytes: number; latencyMs: number; error: string };

/** Fetches and parses one document of `feed` from `url` (its default unless given). */
export async function pollFeed<F extends FeedName>(feed: F, policy: OutboundPolicy, url: string | null = FEEDS[feed].defaultUrl, timeoutMs = 20_000): Promise<PollOutcome<F>> {
  const def: FeedDef = FEEDS[feed];
  if (url === null) return { status: 'failed', url: '', httpStatus: null, bytes: 0, latencyMs: 0, error: `${feed} has no public source: the connector must name its url` };
  const answer = await getOutbound(url, { headers: { accept: def.accept, 'user-agent': USER_AGENT }, timeoutMs, maxBytes: def.maxBytes }, policy);
  const failed = (error: string): PollOutcome<F> => ({ status: 'failed', url, httpStatus: answer.status, bytes: answer.body.length, latencyMs: answer.latencyMs, error });
  if (answer.status === null) return failed(answer.error ?? 'no answer');
  if (answer.status < 200 || answer.status > 299) return failed(`the server answered ${answer.status}`);
  if (answer.truncated) return failed(`the document is longer than ${def.maxBytes} bytes, the bound of ${feed}`);
  try {
    const { records, problems } = def.parse(answer.body.toString('utf8'), url);
    return { status: 'ok', url, httpStatus: answer.status, bytes: answer.body.length, latencyMs: answer.latencyMs, records: records as FeedRecordOf<F>[], problems };
  } catch (err) {
    if (err instanceof FeedFormatError) return failed(err.message);
    throw err;
  }
}
