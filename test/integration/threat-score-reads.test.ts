/**
 * A threat score makes the same DynamoDB calls whatever the number of events naming its target:
 * the proximity factor reads the tenant's line files once, not once per event position (up to
 * 20), and the history is one Query of the mention index, bounded (docs/threat-score.md).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mentionItem, putMentions } from '../../shared/db/mentions.js';
import { threatScore } from '../../shared/domain/threat-score/score.js';
import { newTimeId } from '../../shared/ids.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { countReads } from '../support/db-reads.js';

const IP = '203.0.113.7';

/** A tenant whose events named the IP `events` times in the last days, each at its own place. */
async function tenantNaming(events: number) {
  const tenantId = systemTenant(randomUUID());
  const items = Array.from({ length: events }, (_, i) =>
    mentionItem(
      tenantId,
      {
        kind: 'ip',
        value: IP,
        event_id: newTimeId(),
        event_type: 'network.intrusion',
        occurred_at: new Date(Date.now() - i * 3_600_000).toISOString(),
        threat_score: 0.5,
        incident_id: null,
        signatures: [],
        zone_ids: [],
        location: { lat: 51 + i / 100, lon: -1 - i / 100 },
      },
      0,
    ),
  );
  await putMentions(items);
  return tenantId;
}

const score = (tenantId: ReturnType<typeof systemTenant>) =>
  countReads(() => threatScore(tenantId, { target: IP, target_type: 'ip', context: 'security' }, 'enterprise'));

describe('the threat score', () => {
  it('makes the same calls for a target named by 2 events or by 30', async () => {
    const small = await score(await tenantNaming(2));
    const large = await score(await tenantNaming(30));

    expect(small.result.factors.history.detail).toMatch(/^2 event/);
    expect(large.result.factors.history.detail).toMatch(/^30 event/);
    expect(large.tally.commands.sort()).toEqual(small.tally.commands.sort());
    // Beyond the mention Query (one item per event naming the target), the same items are read.
    expect(large.tally.items - small.tally.items).toBe(30 - 2);
  });
});
