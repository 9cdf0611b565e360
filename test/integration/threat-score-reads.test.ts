/**
 * A threat score reads the same whatever the number of events naming its target (issue 39): the
 * history is the target's day totals (one small item a day) and its newest mentions (a fixed
 * number), both kept by the stream worker's indexing, which counts each event once however often
 * its records come (docs/threat-score.md).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventItem, writeAll, type StoredEvent } from '../../shared/db/events.js';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../shared/db/client.js';
import { mentionKeys } from '../../shared/db/mention-keys.js';
import { mentionItem, putMentions } from '../../shared/db/mentions.js';
import { backfillMentionDays, indexMentions, mentionRecords } from '../../shared/domain/events/index.js';
import { threatScore } from '../../shared/domain/threat-score/score.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';
import { countReads } from '../support/db-reads.js';
import { storedEventAt } from '../support/seed.js';
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';

const IP = '203.0.113.7';
const DAY = 86_400_000;

/**
 * `n` events naming the IP, each at its own place, spread evenly from a minute ago back to the
 * first minute of the UTC day four days before today. Six or more are less than a day apart, so 30
 * and 300 name the same UTC days whatever the time of day the test runs (they named five against
 * six from 04:00 UTC on, when the oldest was placed back from now). Every tenth matched a definition.
 */
function eventsNaming(tenantId: TenantId, n: number): StoredEvent[] {
  const newest = Date.now() - 60_000;
  const oldest = Math.floor(Date.now() / DAY) * DAY - 4 * DAY + 60_000;
  return Array.from({ length: n }, (_, i) => {
    const at = newest - Math.round((i / Math.max(1, n - 1)) * (newest - oldest));
    return storedEventAt(tenantId, null, at, {
      type: 'network.intrusion',
      payload: { source_ip: IP },
      threat_score: 0.5,
      location: { lat: 51 + i / 1000, lon: -1 - i / 1000 },
      matched_signatures:
        i % 10 === 0
          ? [
              {
                definition_id: randomUUID(),
                library_id: randomUUID(),
                name: 'Scanner',
                severity: 'high',
                weight: 0.4,
                zone_id: null,
              },
            ]
          : [],
    });
  });
}

const expiresAt = () => Math.floor(Date.now() / 1000) + 7 * 86_400;
const index = (events: StoredEvent[]) => indexMentions(events.map((event) => ({ event, expiresAt: expiresAt() })));

async function tenantNaming(n: number) {
  const tenantId = systemTenant(randomUUID());
  const events = eventsNaming(tenantId, n);
  await index(events);
  return { tenantId, events };
}

const score = (tenantId: TenantId) =>
  countReads(() => threatScore(tenantId, { target: IP, target_type: 'ip', context: 'security' }, 'enterprise'));

describe('the threat score', () => {
  it('makes the same calls and reads the same items for a target named by 30 events or by 300', async () => {
    const small = await score((await tenantNaming(30)).tenantId);
    const large = await score((await tenantNaming(300)).tenantId);

    expect(small.result.factors.history.detail).toMatch(/^30 event\(s\), 0 incident\(s\), 3 event\(s\) matching/);
    expect(large.result.factors.history.detail).toMatch(/^300 event\(s\), 0 incident\(s\), 30 event\(s\) matching/);
    expect(large.result.matched_signatures).toEqual(['Scanner']);
    // Named on each of the same five UTC days: the same recency and frequency.
    expect(large.result.factors.recency_frequency.value).toBe(small.result.factors.recency_frequency.value);
    expect(large.tally.commands.sort()).toEqual(small.tally.commands.sort());
    expect(large.tally.items).toBe(small.tally.items);
  });

  it('counts an event once however often its records come, and its incident once it is linked', async () => {
    const { tenantId, events } = await tenantNaming(4);
    // The stream delivers a batch again: nothing more is counted.
    await index(events);
    const incidentId = randomUUID();
    const linked = events.slice(0, 2).map((e) => ({ ...e, incident_id: incidentId }));
    // Linked to an incident (twice over, as a retried batch would).
    await index(linked);
    await index(linked);
    const { result } = await score(tenantId);
    expect(result.factors.history.detail).toMatch(/^4 event\(s\), 1 incident\(s\), 1 event\(s\) matching/);
    // The first matched a definition and is linked, the second is linked: 2 of the 4 are flagged.
    expect(result.factors.behaviour.detail).toBe(
      '2 of 4 event(s) naming it matched a threat definition or opened an incident',
    );
  });

  it('counts the mentions written before the day totals once the backfill ran, and not twice when it runs again', async () => {
    const tenantId = systemTenant(randomUUID());
    const events = eventsNaming(tenantId, 12);
    await writeAll(events.map((event) => eventItem({ event, contentHash: 'h', expiresAt: expiresAt() })));
    const history = async () => (await score(tenantId)).result.factors.history.detail;
    // The stack's stream worker indexes them; then the table is made as it was before the totals:
    // the mention items without `counted`, and no day totals.
    await expect.poll(history, { timeout: PIPELINE_WAIT_MS, interval: 500 }).toMatch(/^12 event\(s\)/);
    await putMentions(events.flatMap((e) => mentionRecords(e).map((m) => mentionItem(tenantId, m, expiresAt()))));
    const days = new Set(events.map((e) => e.occurred_at.slice(0, 10)));
    await Promise.all(
      [...days].map((day) =>
        db.send(new DeleteCommand({ TableName: TABLE, Key: mentionKeys.mentionDay(tenantId, 'ip', IP, day) })),
      ),
    );
    expect(await history()).toMatch(/^0 event\(s\)/);

    await backfillMentionDays(tenantId, Date.now() - 92 * 86_400_000);
    expect(await history()).toMatch(/^12 event\(s\), 0 incident\(s\), 2 event/);
    await backfillMentionDays(tenantId, Date.now() - 92 * 86_400_000);
    expect(await history()).toMatch(/^12 event\(s\), 0 incident\(s\), 2 event/);
  });
});
