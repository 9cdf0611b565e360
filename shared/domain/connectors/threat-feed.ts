/**
 * Lookups in the threat feed (docs/connectors.md):
 * - CISA's Known Exploited Vulnerabilities, as the tenant's `cisa-kev` connectors keep it (or the
 *   public catalogue when it has none), by CVE id (one BatchGetItem over its sources) or by product
 *   words (the catalogue read whole, about 1,500 records, and searched in memory);
 * - the tenant's own indicator lists (`stix-indicators`, `csv-indicators` connectors), by IP (the
 *   address itself and every network listed that holds it), domain (the name and each parent),
 *   URL, file hash or e-mail address. A record's id starts with its type and value, so each is a
 *   Query on that prefix per source (a domain: one per name and parent; an IP: its own and the
 *   list's networks).
 */
import { feedRecordIn, feedRecords } from '../../db/feed-records.js';
import { kevIndex, type KevRecord } from '../../feeds/cisa-kev.js';
import {
  indicatorIndex,
  normaliseIndicator,
  type IndicatorRecord,
  type IndicatorType,
} from '../../feeds/indicators.js';
import { invalid } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { listTenantConnectors } from '../../db/connectors.js';
import { sourcesOf } from './connector-view.js';
import { connectorSource } from './feed-sources.js';

/** A catalogue holds about 1,500 entries; this bounds a whole read. */
const MAX_CATALOGUE = 10_000;

export interface KevLookup {
  matches: KevRecord[];
  truncated: boolean;
  sources: string[];
  fetched_at: string | null;
}

export async function lookupKev(
  tenantId: TenantId,
  q: { cve?: string; product?: string; limit: number },
): Promise<KevLookup> {
  const sources = await sourcesOf(tenantId, 'cisa-kev');
  const found = new Map<string, KevRecord>();
  let fetchedAt: string | null = null;
  if (q.cve) {
    for (const hit of await feedRecordIn<KevRecord>(sources, q.cve.toUpperCase())) {
      found.set(hit.record.id, hit.record);
      if (!fetchedAt || hit.fetched_at > fetchedAt) fetchedAt = hit.fetched_at;
    }
  } else if (q.product) {
    for (const source of sources) {
      const records = await feedRecords<KevRecord>(source, MAX_CATALOGUE);
      for (const r of kevIndex(records).byProduct(q.product)) found.set(r.id, r);
    }
  }
  const matches = [...found.values()].sort(
    (a, b) => b.date_added.localeCompare(a.date_added) || b.id.localeCompare(a.id),
  );
  return { matches: matches.slice(0, q.limit), truncated: matches.length > q.limit, sources, fetched_at: fetchedAt };
}

/** Indicators read per prefix and source, at most; networks of one list, at most. */
const MAX_PER_VALUE = 100;
const MAX_NETWORKS = 5_000;

/** One of these is given (the route's schema says so). */
export interface IndicatorQuery {
  ip?: string;
  domain?: string;
  url?: string;
  hash?: string;
  email?: string;
}

export interface IndicatorLookup {
  query: { type: IndicatorType; value: string };
  matches: IndicatorRecord[];
  truncated: boolean;
  sources: string[];
}

const HASH_TYPES: Record<number, IndicatorType> = { 64: 'sha256', 40: 'sha1', 32: 'md5' };

/** What is asked for, normalised as the lists are; a string says why it cannot be looked up. */
function asked(q: IndicatorQuery): {
  field: keyof IndicatorQuery;
  want: { type: IndicatorType; value: string } | string;
} {
  if (q.ip !== undefined) return { field: 'ip', want: normaliseIndicator('ip', q.ip) };
  if (q.domain !== undefined) return { field: 'domain', want: normaliseIndicator('domain', q.domain) };
  if (q.url !== undefined) return { field: 'url', want: normaliseIndicator('url', q.url) };
  if (q.email !== undefined) return { field: 'email', want: normaliseIndicator('email', q.email) };
  const type = HASH_TYPES[q.hash?.length ?? 0];
  return {
    field: 'hash',
    want: type
      ? normaliseIndicator(type, q.hash!)
      : 'a hash is 32 (MD5), 40 (SHA-1) or 64 (SHA-256) hexadecimal digits',
  };
}

/**
 * The tenant's indicators naming a value, valid at `at` (valid_from passed, valid_until not yet),
 * newest valid first. A value that is not one of its kind is a validation error saying why.
 */
export async function lookupIndicators(
  tenantId: TenantId,
  q: IndicatorQuery,
  limit: number,
  at: Date,
): Promise<IndicatorLookup> {
  const { field, want } = asked(q);
  if (typeof want === 'string') throw invalid(['query', field], want);
  const sources = [
    ...new Set(
      (await listTenantConnectors(tenantId))
        .filter((c) => c.connector.feed === 'stix-indicators' || c.connector.feed === 'csv-indicators')
        .map((c) => connectorSource(c.connector)),
    ),
  ];
  const labels = want.value.split('.');
  const prefixes =
    want.type === 'ip'
      ? [`ip|${want.value}|`, 'cidr|']
      : want.type === 'domain'
        ? labels.slice(0, -1).map((_, i) => `domain|${labels.slice(i).join('.')}|`)
        : [`${want.type}|${want.value}|`];
  const read = await Promise.all(
    sources.flatMap((s) =>
      prefixes.map((p) =>
        feedRecords<IndicatorRecord>(s, p === 'cidr|' ? MAX_NETWORKS : MAX_PER_VALUE, { idPrefix: p }),
      ),
    ),
  );
  const index = indicatorIndex(read.flat(), at);
  const found =
    want.type === 'ip'
      ? index.byIp(want.value)
      : want.type === 'domain'
        ? index.byDomain(want.value)
        : index.byValue(want.type, want.value);
  const matches = [...new Map(found.map((r) => [`${r.source_url}|${r.id}`, r])).values()].sort(
    (a, b) => (b.valid_from ?? '').localeCompare(a.valid_from ?? '') || a.id.localeCompare(b.id),
  );
  return { query: want, matches: matches.slice(0, limit), truncated: matches.length > limit, sources };
}
