import { describe, expect, it } from 'vitest';
import { mentionRecords } from '../../shared/domain/events/mention-index.js';
import type { StoredEvent } from '../../shared/db/events.js';
import type { TenantId } from '../../shared/vocabulary/tenant.js';

const event = (over: Partial<StoredEvent>): StoredEvent => ({
  event_id: '0190f2a4-1b2c-7d3e-8f40-123456789abc',
  tenant_id: 't1' as TenantId,
  environment_id: null,
  sensor_id: 'cam-1',
  type: 'intrusion.detected',
  source: 'sensor',
  occurred_at: '2026-11-25T05:00:00.000Z',
  received_at: '2026-11-25T05:00:01.000Z',
  location: { lat: 51.15, lon: 1.6 },
  severity: null,
  description: null,
  payload: { source_ip: '203.0.113.9' },
  matched_zone_ids: [],
  matched_signatures: [],
  threat_score: 0.4,
  threat_factors: null,
  processed: false,
  processed_at: null,
  incident_id: null,
  ...over,
});

const match = {
  library_id: 'l',
  definition_id: 'd',
  name: 'Scanner',
  severity: 'high' as const,
  weight: 0.4,
  zone_id: null,
};

describe('mentionRecords', () => {
  it("keeps one item per entity the event names and one for its location's grid cell", () => {
    expect(mentionRecords(event({})).map((m) => [m.kind, m.value])).toEqual([
      ['sensor', 'cam-1'],
      ['ip', '203.0.113.9'],
      ['cell', '255:8'],
    ]);
  });

  it('leaves out routine telemetry unless it matched a definition, and alerts always', () => {
    for (const type of ['sensor.reading', 'sensor.heartbeat', 'ais.position', 'ais.static', 'access.granted']) {
      expect(mentionRecords(event({ type })), type).toEqual([]);
      expect(mentionRecords(event({ type, matched_signatures: [match] })).length, `${type} matched`).toBe(3);
    }
    expect(mentionRecords(event({ type: 'watchlist.alert', matched_signatures: [match] }))).toEqual([]);
    expect(mentionRecords(event({ type: 'access.denied' })).length).toBe(3);
  });

  it('carries what the score reads: the signatures by name, the incident, the score', () => {
    const [first] = mentionRecords(event({ matched_signatures: [match, match], incident_id: 'i-1' }));
    expect(first).toMatchObject({
      signatures: ['Scanner'],
      incident_id: 'i-1',
      threat_score: 0.4,
      event_type: 'intrusion.detected',
    });
  });
});
