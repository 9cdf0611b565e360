/**
 * The local stand-ins of EventBridge: pattern matching (rules, and the stream filter criteria the
 * local poller applies), and the in-process bus with subscribers and its record of what was
 * published.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localEventBusAdapter } from '../../shared/local/event-bus.js';
import { checkPattern, matchesPattern, type EventPattern } from '../../shared/local/event-pattern.js';
import { LocalEventBus, localEventBus, type BusEvent } from '../../shared/local/event-bus.js';
import { streamFilterPatterns, triggerOf } from '../../shared/workers.js';

describe('event patterns', () => {
  const event = {
    source: 'gatehouse.events',
    'detail-type': 'perimeter.breach',
    detail: { tenant_id: 't1', severity: 'high', matched_zone_ids: ['z1', 'z2'], location: { lat: 1 } },
  };
  const cases: [string, EventPattern, boolean][] = [
    ['exact values', { source: ['gatehouse.events'], 'detail-type': ['perimeter.breach', 'intrusion.detected'] }, true],
    ['another type', { 'detail-type': ['intrusion.detected'] }, false],
    ['nested field', { detail: { tenant_id: ['t1'] } }, true],
    ['other tenant', { detail: { tenant_id: ['t2'] } }, false],
    ['prefix', { 'detail-type': [{ prefix: 'perimeter.' }] }, true],
    ['suffix', { 'detail-type': [{ suffix: '.created' }] }, false],
    ['anything-but', { detail: { severity: [{ 'anything-but': ['low', 'medium'] }] } }, true],
    ['anything-but hit', { detail: { severity: [{ 'anything-but': 'high' }] } }, false],
    ['array field: any element', { detail: { matched_zone_ids: ['z2'] } }, true],
    ['exists', { detail: { severity: [{ exists: true }] } }, true],
    ['exists false on an absent field', { detail: { incident_id: [{ exists: false }] } }, true],
    ['absent field', { detail: { incident_id: ['x'] } }, false],
    ['object where a value is expected', { detail: { location: ['x'] } }, false],
  ];
  it.each(cases)('%s', (_name, pattern, expected) => {
    checkPattern(pattern);
    expect(matchesPattern(pattern, event)).toBe(expected);
  });

  it('refuses what it does not support, instead of ignoring it', () => {
    expect(() => checkPattern({ detail: { n: [{ numeric: ['>', 1] }] } })).toThrow(/unsupported matcher/);
    expect(() => checkPattern({ source: [] })).toThrow(/empty list/);
    expect(() => checkPattern({})).toThrow(/empty/);
  });

  it('the publish-events filter passes new EVENT and OUTBOX items only', () => {
    const [pattern] = streamFilterPatterns(triggerOf('publish-events', 'table-stream')) as EventPattern[];
    const rec = (eventName: string, entity: string) => ({
      eventName,
      dynamodb: { NewImage: { entity: { S: entity }, PK: { S: 'x' } } },
    });
    expect(matchesPattern(pattern!, rec('INSERT', 'EVENT'))).toBe(true);
    expect(matchesPattern(pattern!, rec('INSERT', 'OUTBOX'))).toBe(true);
    expect(matchesPattern(pattern!, rec('MODIFY', 'EVENT'))).toBe(false);
    expect(matchesPattern(pattern!, rec('INSERT', 'AUDIT'))).toBe(false);
    expect(matchesPattern(pattern!, { eventName: 'REMOVE', dynamodb: { Keys: {} } })).toBe(false);
  });
});

describe('the in-process bus', () => {
  const entry = (tenant: string, type: string) => ({
    source: 'gatehouse.events',
    detailType: type,
    detail: { tenant_id: tenant, n: 1 },
    time: '2026-11-21T10:00:01.234Z',
  });

  it('delivers EventBridge-shaped events to the subscribers whose pattern matches, asynchronously', async () => {
    const bus = new LocalEventBus();
    const got: Record<string, BusEvent[]> = { t1: [], breaches: [] };
    bus.subscribe('t1', { detail: { tenant_id: ['t1'] } }, (e) => void got.t1!.push(e));
    bus.subscribe(
      'breaches',
      { source: ['gatehouse.events'], 'detail-type': ['perimeter.breach'] },
      (e) => void got.breaches!.push(e),
    );
    bus.put(
      [entry('t1', 'perimeter.breach'), entry('t2', 'perimeter.breach'), entry('t1', 'sensor.reading')],
      'eu-west-1',
    );
    expect(got.t1).toEqual([]);
    await bus.idle();
    expect(got.t1!.map((e) => e['detail-type'])).toEqual(['perimeter.breach', 'sensor.reading']);
    expect(got.breaches!.map((e) => e.detail.tenant_id)).toEqual(['t1', 't2']);
    expect(got.t1![0]).toEqual({
      version: '0',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      'detail-type': 'perimeter.breach',
      source: 'gatehouse.events',
      account: '000000000000',
      time: '2026-11-21T10:00:01Z',
      region: 'eu-west-1',
      resources: [],
      detail: { tenant_id: 't1', n: 1 },
    });
  });

  it('a failing subscriber does not reach the publisher nor the others; unsubscribe stops delivery', async () => {
    const bus = new LocalEventBus();
    const seen: string[] = [];
    bus.subscribe('broken', { source: ['gatehouse.events'] }, () => {
      throw new Error('boom');
    });
    const unsubscribe = bus.subscribe(
      'fine',
      { source: ['gatehouse.events'] },
      (e) => void seen.push(e['detail-type']),
    );
    expect(() => bus.put([entry('t1', 'a.b')], 'r')).not.toThrow();
    await bus.idle();
    unsubscribe();
    bus.put([entry('t1', 'c.d')], 'r');
    await bus.idle();
    expect(seen).toEqual(['a.b']);
    expect(bus.published({ 'detail-type': ['c.d'] })).toHaveLength(1);
  });

  it('records what was published, in memory and in a JSON Lines file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bus-'));
    try {
      const bus = new LocalEventBus();
      const file = join(dir, 'bus.jsonl');
      bus.recordTo(file);
      bus.put([entry('t1', 'a.b'), entry('t2', 'c.d')], 'r');
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BusEvent);
      expect(lines.map((e) => e.detail.tenant_id)).toEqual(['t1', 't2']);
      expect(bus.published().map((e) => e.id)).toEqual(lines.map((e) => e.id));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the adapter in local mode accepts every entry onto this process's bus", async () => {
    const before = localEventBus().published().length;
    const outcomes = await localEventBusAdapter('gatehouse-local', 'us-east-1').putEntries([entry('t9', 'x.y')]);
    expect(outcomes).toEqual([{}]);
    expect(
      localEventBus()
        .published()
        .slice(before)
        .map((e) => e.detail.tenant_id),
    ).toEqual(['t9']);
  });
});
