/**
 * Lookups in the threat feed (docs/connectors.md): CISA's Known Exploited Vulnerabilities, as the
 * tenant's `cisa-kev` connectors keep it (or the public catalogue when it has none), by CVE id
 * (one BatchGetItem over its sources) or by product words (the catalogue read whole, about 1,500
 * records, and searched in memory).
 */
import { feedRecordIn, feedRecords } from '../../db/feed-records.js';
import { kevIndex, type KevRecord } from '../../feeds/cisa-kev.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { sourcesOf } from './connector-view.js';

/** A catalogue holds about 1,500 entries; this bounds a whole read. */
const MAX_CATALOGUE = 10_000;

export interface KevLookup {
  matches: KevRecord[];
  truncated: boolean;
  sources: string[];
  fetched_at: string | null;
}

export async function lookupKev(tenantId: TenantId, q: { cve?: string; product?: string; limit: number }): Promise<KevLookup> {
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
  const matches = [...found.values()].sort((a, b) => b.date_added.localeCompare(a.date_added) || b.id.localeCompare(a.id));
  return { matches: matches.slice(0, q.limit), truncated: matches.length > q.limit, sources, fetched_at: fetchedAt };
}
