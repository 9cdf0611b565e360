/**
 * Connector records on their way to the lake (shared/domain/connectors/lake-export.ts, and the
 * exporter's side in shared/domain/data-lake/tables.ts): only what the connector has not exported
 * as it is now, messages that fit the queue, a record too large sent without its body, and the
 * exporter keeping a message to its own tenant.
 */
import { describe, expect, it } from 'vitest';
import { connectorLakeRows, lakeMessages, MAX_MESSAGE_BYTES } from '../../shared/domain/connectors/lake-export.js';
import { lakeRecordsOf } from '../../shared/domain/data-lake/tables.js';
import { feedFixture } from '../support/feed-server.js';
import { parseUsgsQuakes } from '../../shared/feeds/usgs-quakes.js';

const A = '0190a1b2-0000-7000-8000-00000000000a';
const B = '0190a1b2-0000-7000-8000-00000000000b';
const connector = { id: 'c1', feed: 'usgs-quakes' as const, source: 'usgs-quakes' };
const { records } = parseUsgsQuakes(
  feedFixture('usgs-quakes/all_day.2022-09-29.trimmed.geojson').toString(),
  'https://example.org/q',
);
const AT = '2026-11-27T08:00:00.000Z';

describe('connectorLakeRows', () => {
  it('sends every record the first time, none when they are as exported, and a revised one alone', () => {
    const first = connectorLakeRows(A, connector, records, AT, new Set());
    expect(first.rows).toHaveLength(records.length);
    expect(first.rows[0]).toMatchObject({
      record_key: `usgs-quakes|${records[0]!.id}`,
      tenant_id: A,
      feed: 'usgs-quakes',
      lat: records[0]!.lat,
      record_time: records[0]!.time,
      truncated: false,
    });
    const again = connectorLakeRows(A, connector, records, AT, new Set(first.fingerprints));
    expect(again.rows).toEqual([]);
    const revised = records.map((r, i) => (i === 3 ? { ...r, magnitude: 7.7 } : r));
    const third = connectorLakeRows(A, connector, revised, AT, new Set(first.fingerprints));
    expect(third.rows.map((r) => r.record_id)).toEqual([records[3]!.id]);
  });

  it('sends a record too large for a queue message without its body', () => {
    const huge = { id: 'manifest', ids: Array.from({ length: 20_000 }, (_, i) => `vessel|imo|${9_000_000 + i}`) };
    const [row] = connectorLakeRows(A, connector, [huge], AT, new Set()).rows;
    expect(row).toMatchObject({ record_id: 'manifest', record: null, truncated: true });
  });
});

describe('lakeMessages', () => {
  it('splits rows into messages under the bound, every row once, and the exporter reads them back for their tenant only', () => {
    const rows = connectorLakeRows(
      A,
      connector,
      [...records, ...records.map((r) => ({ ...r, id: `${r.id}-copy`, place: 'x'.repeat(60_000) }))],
      AT,
      new Set(),
    ).rows;
    const bodies = lakeMessages(A, rows);
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    const back = bodies.flatMap((body) => {
      const m = JSON.parse(body) as { source: string; 'detail-type': string; detail: Record<string, unknown> };
      return lakeRecordsOf({ source: m.source, detailType: m['detail-type'], detail: m.detail });
    });
    expect(back.map((r) => r.row.record_key).sort()).toEqual(rows.map((r) => r.record_key).sort());
    expect(
      back.every(
        (r) =>
          r.table === 'feed_records' && r.tenantId === A && r.date === '2026-11-27' && r.row.fetched_at instanceof Date,
      ),
    ).toBe(true);

    // A message naming tenant B whose rows say A: nothing is written for either.
    const forged = JSON.parse(bodies[0]!) as { source: string; 'detail-type': string; detail: Record<string, unknown> };
    expect(
      lakeRecordsOf({
        source: forged.source,
        detailType: forged['detail-type'],
        detail: { ...forged.detail, tenant_id: B },
      }),
    ).toEqual([]);
  });
});
