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
 *
 * The URL called may carry credentials; what the poll says of it (the outcome's `url`, the
 * records' `source_url`) has them `REDACTED` (shared/url-secrets.ts).
 */
import type { OutboundPolicy } from '../../adapters/outbound-address.js';
import { getOutbound, streamOutbound, type OutboundDownload } from '../../adapters/outbound-http.js';
import { parseCisaKev } from '../../feeds/cisa-kev.js';
import { FeedFormatError, type FeedProblem } from '../../feeds/feed-document.js';
import { parseSwpcKp } from '../../feeds/swpc-kp.js';
import { parseSwpcSolarWind } from '../../feeds/swpc-solar-wind.js';
import { parseGdacsEvents } from '../../feeds/gdacs-events.js';
import { parseCsvIndicators, parseStixIndicators } from '../../feeds/indicators.js';
import { parseUsgsQuakes } from '../../feeds/usgs-quakes.js';
import { parseNwsAlerts } from '../../feeds/nws-alerts.js';
import { parseRisLive } from '../../feeds/ripe-ris.js';
import { parseRpkiVrps } from '../../feeds/rpki-vrps.js';
import { parseStateDeptAdvisories } from '../../feeds/state-dept-advisories.js';
import { parseOfacSdn } from '../../feeds/ofac-sdn.js';
import { parseCanadaAdvisory } from '../../feeds/canada-advisory.js';
import { parseGeopoliticalList } from '../../feeds/geopolitical-list.js';
import { FEED_CATALOG, FEED_NAMES, type FeedCatalogEntry, type FeedName } from '../../schemas/feed-catalog.js';
import { redactUrl } from '../../url-secrets.js';

export interface FeedDef {
  /** The public source polled unless the connector names another; null when it must. */
  defaultUrl: string | null;
  accept: string;
  /** At most this much of a document is read; a longer one fails the poll. */
  maxBytes: number;
  parse: (body: string, sourceUrl: string) => { records: { id: string }[]; problems: FeedProblem[] };
}

/**
 * Each feed's parser, from the module of shared/feeds its catalog entry names (`parser`; a test
 * checks that it is from there): a feed new to the catalog fails to compile until its parser is here.
 */
const PARSERS = {
  'swpc-kp': parseSwpcKp,
  'swpc-plasma': parseSwpcSolarWind,
  'swpc-mag': parseSwpcSolarWind,
  'usgs-quakes': parseUsgsQuakes,
  gdacs: parseGdacsEvents,
  'cisa-kev': parseCisaKev,
  'stix-indicators': parseStixIndicators,
  'csv-indicators': parseCsvIndicators,
  'nws-alerts': parseNwsAlerts,
  'rpki-vrps': parseRpkiVrps,
  'ris-live': parseRisLive,
  'state-dept-advisories': parseStateDeptAdvisories,
  'canada-advisory': parseCanadaAdvisory,
  'ofac-sdn': parseOfacSdn,
  'geopolitical-list': parseGeopoliticalList,
} as const satisfies Record<FeedName, FeedDef['parse']>;

/** The feeds a connector may poll: their catalog entry and their parser. */
export const FEEDS = Object.fromEntries(
  FEED_NAMES.map((feed) => [feed, { ...FEED_CATALOG[feed], parse: PARSERS[feed] }]),
) as {
  [F in FeedName]: (typeof FEED_CATALOG)[F] & FeedCatalogEntry & { parse: (typeof PARSERS)[F] };
};

export type { FeedName };

/** Some publishers (NWS among them) ask pollers to name themselves. */
const USER_AGENT = 'Gatehouse feed connector';
export type FeedRecordOf<F extends FeedName> = ReturnType<(typeof FEEDS)[F]['parse']>['records'][number];

export type PollOutcome<F extends FeedName> =
  | {
      status: 'ok';
      url: string;
      httpStatus: number;
      bytes: number;
      latencyMs: number;
      records: FeedRecordOf<F>[];
      problems: FeedProblem[];
    }
  | { status: 'failed'; url: string; httpStatus: number | null; bytes: number; latencyMs: number; error: string };

/** A stream (RIS Live): how long a poll reads it, and what the request says besides (its filter). */
export interface StreamRead {
  windowMs: number;
  /** Less than the feed's own size bound, when given. */
  maxBytes?: number;
  headers?: Record<string, string>;
}

/** Fetches and parses one document of `feed` from `url` (its default unless given); a stream feed is read for `stream.windowMs`. */
export async function pollFeed<F extends FeedName>(
  feed: F,
  policy: OutboundPolicy,
  url: string | null = FEEDS[feed].defaultUrl,
  timeoutMs = 20_000,
  // Unless told (a connector's poll says its window and filter), a glance: a connection's test.
  stream: StreamRead = { windowMs: 2_000, maxBytes: 256 * 1024 },
): Promise<PollOutcome<F>> {
  const def: FeedDef & FeedCatalogEntry = FEEDS[feed];
  if (url === null)
    return {
      status: 'failed',
      url: '',
      httpStatus: null,
      bytes: 0,
      latencyMs: 0,
      error: `${feed} has no public source: the connector must name its url`,
    };
  const headers = { accept: def.accept, 'user-agent': USER_AGENT };
  let answer: OutboundDownload;
  if (def.stream) {
    const read = await streamOutbound(
      url,
      {
        headers: { ...headers, ...stream.headers },
        timeoutMs,
        windowMs: stream.windowMs,
        maxBytes: Math.min(def.maxBytes, stream.maxBytes ?? def.maxBytes),
      },
      policy,
    );
    // Either bound ends a read of a stream; the line being read then is cut, and dropped.
    const cut =
      read.stopped === 'window' || read.stopped === 'size' ? read.body.lastIndexOf(0x0a) + 1 : read.body.length;
    answer = { ...read, body: read.body.subarray(0, cut), truncated: false };
  } else {
    answer = await getOutbound(url, { headers, timeoutMs, maxBytes: def.maxBytes }, policy);
  }
  const shown = redactUrl(url);
  const failed = (error: string): PollOutcome<F> => ({
    status: 'failed',
    url: shown,
    httpStatus: answer.status,
    bytes: answer.body.length,
    latencyMs: answer.latencyMs,
    error,
  });
  if (answer.status === null) return failed(answer.error ?? 'no answer');
  if (answer.status < 200 || answer.status > 299) return failed(`the server answered ${answer.status}`);
  if (answer.truncated) return failed(`the document is longer than ${def.maxBytes} bytes, the bound of ${feed}`);
  try {
    const { records, problems } = def.parse(answer.body.toString('utf8'), shown);
    return {
      status: 'ok',
      url: shown,
      httpStatus: answer.status,
      bytes: answer.body.length,
      latencyMs: answer.latencyMs,
      records: records as FeedRecordOf<F>[],
      problems,
    };
  } catch (err) {
    if (err instanceof FeedFormatError) return failed(err.message);
    throw err;
  }
}

/** Documents larger than this are not read whole by a connection's test (an RPKI export is up to 128 MB). */
const PROBE_WHOLE_BYTES = 16 * 1024 * 1024;
const PROBE_BYTES = 64 * 1024;

/**
 * A connection's test of a feed: whether its source answers with the feed's document. A feed of
 * at most 16 MB is polled (and parsed) as a poll would, storing nothing; a larger one (an RPKI
 * export) is read for its first 64 KB, which must be a 2xx answer starting a JSON object: parsing
 * 700,000 VRPs is the poll's work, on the worker's memory, not the test route's.
 */
export async function probeFeed(
  feed: FeedName,
  policy: OutboundPolicy,
  url: string,
): Promise<{ ok: boolean; httpStatus: number | null; latencyMs: number; error: string | null }> {
  if (FEEDS[feed].maxBytes <= PROBE_WHOLE_BYTES) {
    const poll = await pollFeed(feed, policy, url);
    return {
      ok: poll.status === 'ok',
      httpStatus: poll.httpStatus,
      latencyMs: poll.latencyMs,
      error: poll.status === 'ok' ? null : poll.error,
    };
  }
  const answer = await getOutbound(
    url,
    { headers: { accept: FEEDS[feed].accept, 'user-agent': USER_AGENT }, maxBytes: PROBE_BYTES },
    policy,
  );
  const fail = (error: string) => ({ ok: false, httpStatus: answer.status, latencyMs: answer.latencyMs, error });
  if (answer.status === null) return fail(answer.error ?? 'no answer');
  if (answer.status < 200 || answer.status > 299) return fail(`the server answered ${answer.status}`);
  if (!answer.body.toString('utf8').trimStart().startsWith('{'))
    return fail(
      `the document is not a JSON object (starts "${answer.body.toString('utf8').trimStart().slice(0, 32)}")`,
    );
  return { ok: true, httpStatus: answer.status, latencyMs: answer.latencyMs, error: null };
}
