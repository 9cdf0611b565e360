/**
 * The audit list's `total` (`GET /api/v1/audit-logs/{tenant}`) comes from the tenant's day counts,
 * kept in the transactions that write the entries: a page costs the same calls and items whether
 * the tenant has 25 entries or 300, and the total is exact, for a range too, and for entries
 * written before the counts existed (counted by a COUNT Query of their range, which no longer
 * grows).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditEntry, auditPut, queryAudit } from '../../shared/db/audit/index.js';
import { db, TABLE } from '../../shared/db/client.js';
import { transactWrite } from '../../shared/db/transact.js';
import { systemActor } from '../../shared/domain/actor.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';
import { countReads } from '../support/db-reads.js';

const entry = (tenantId: string, action: string) =>
  auditEntry(systemActor('r-1'), { tenantId, action, resourceType: 'zone', resourceId: 'z-1' });

/** A tenant opened by its `tenant.created` entry, then `more` entries, in transactions of 1 to 3. */
async function tenantWith(more: number): Promise<TenantId> {
  const tenantId = systemTenant(randomUUID());
  await transactWrite([auditPut(entry(tenantId, 'tenant.created'))]);
  for (let i = 0; i < more;) {
    const n = Math.min(1 + (i % 3), more - i);
    await transactWrite(Array.from({ length: n }, () => auditPut(entry(tenantId, 'zone.created'))));
    i += n;
  }
  return tenantId;
}

const page = (tenantId: TenantId) => countReads(() => queryAudit(tenantId, {}, { limit: 21, offset: 0 }));

describe('the audit list total', () => {
  it('costs the same calls and items for 25 entries or 300, and is exact', async () => {
    const small = await page(await tenantWith(24));
    const large = await page(await tenantWith(299));
    expect(small.result.total).toBe(25);
    expect(large.result.total).toBe(300);
    expect(large.result.items).toHaveLength(21);
    expect(large.tally).toEqual(small.tally);
  });

  it('counts a range exactly, days it takes whole or in part', async () => {
    const tenantId = await tenantWith(6);
    const { items } = await queryAudit(tenantId, {}, { limit: 10, offset: 0 });
    const times = items.map((e) => Date.parse(e.timestamp)).reverse();
    const total = (fromMs?: number, toMs?: number) => queryAudit(tenantId, { fromMs, toMs }, { limit: 1, offset: 0 });
    expect((await total(times[2])).total).toBe(items.filter((e) => Date.parse(e.timestamp) >= times[2]!).length);
    expect((await total(times[1], times[4])).total).toBe(
      items.filter((e) => Date.parse(e.timestamp) >= times[1]! && Date.parse(e.timestamp) <= times[4]!).length,
    );
    const day = Date.parse(items[0]!.timestamp.slice(0, 10));
    const onDay = items.filter((e) => e.timestamp.slice(0, 10) === items[0]!.timestamp.slice(0, 10));
    expect((await total(day, day + 86_400_000 - 1)).total).toBe(onDay.length);
    expect((await total(day + 86_400_000)).total).toBe(0);
  });

  it('counts entries written before the counts, and those after', async () => {
    const tenantId = systemTenant(randomUUID());
    // Written as a release before the counts did: the entry alone.
    for (let i = 0; i < 3; i++) {
      const old = auditPut(entry(tenantId, 'zone.created')).Put!.Item!;
      await db.send(new PutCommand({ TableName: TABLE, Item: old }));
    }
    expect((await queryAudit(tenantId, {}, { limit: 1, offset: 0 })).total).toBe(3);
    await transactWrite([auditPut(entry(tenantId, 'zone.updated')), auditPut(entry(tenantId, 'zone.updated'))]);
    const { items, total } = await queryAudit(tenantId, {}, { limit: 10, offset: 0 });
    expect(total).toBe(5);
    const since = Date.parse(items[3]!.timestamp);
    expect((await queryAudit(tenantId, { fromMs: since }, { limit: 1, offset: 0 })).total).toBe(
      items.filter((e) => Date.parse(e.timestamp) >= since).length,
    );
  });
});
