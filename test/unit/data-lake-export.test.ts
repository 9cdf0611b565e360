/**
 * How bus messages become the data lake's files (shared/domain/data-lake): events, vessel
 * positions from `ais.position` events, incident changes; one file per table, tenant and day,
 * named by its rows' ids so the same batch gives the same keys; a file that cannot be written
 * fails exactly the messages that made it. The Parquet itself is read back with DuckDB.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parquetOf } from '../../shared/adapters/lake/parquet.js';
import { exportToLake } from '../../shared/domain/data-lake/export.js';
import { lakeTable, type LakeMessage } from '../../shared/domain/data-lake/tables.js';

const A = '0190a1b2-0000-7000-8000-00000000000a';
const B = '0190a1b2-0000-7000-8000-00000000000b';

const event = (
  tenant: string,
  id: string,
  type: string,
  occurred: string,
  extra: Record<string, unknown> = {},
): LakeMessage => ({
  source: 'gatehouse.events',
  detailType: type,
  detail: {
    tenant_id: tenant,
    event_id: id,
    type,
    source: 'sensor',
    occurred_at: occurred,
    received_at: occurred,
    payload: {},
    matched_zone_ids: [],
    ...extra,
  },
});
const incident = (tenant: string, id: string, change: string, updated: string, messageId: string): LakeMessage => ({
  source: 'gatehouse.incidents',
  detailType: change,
  detail: {
    tenant_id: tenant,
    incident_id: id,
    title: 'Fence cut',
    status: 'confirmed',
    severity: 'high',
    escalation_level: 1,
    created_at: updated,
    updated_at: updated,
    event_ids: [],
    message_id: messageId,
  },
});

const messages: LakeMessage[] = [
  event(A, 'e1', 'motion.detected', '2026-11-20T10:00:00.000Z'),
  event(A, 'e2', 'ais.position', '2026-11-20T11:00:00.000Z', {
    location: { lat: 51.5, lon: 1.25 },
    payload: { mmsi: '235000001', sog_knots: 12.5 },
  }),
  event(A, 'e3', 'motion.detected', '2026-11-21T00:00:00.000Z'),
  event(B, 'e4', 'motion.detected', '2026-11-20T10:00:00.000Z'),
  incident(A, 'i1', 'incident.created', '2026-11-20T12:00:00.000Z', 'm1'),
  incident(A, 'i1', 'incident.acknowledged', '2026-11-20T12:05:00.000Z', 'm2'),
  { source: 'gatehouse.incidents', detailType: 'incident.notification', detail: { tenant_id: A, incident_id: 'i1' } },
];

async function run(items = messages, fail?: (key: string) => boolean) {
  const files = new Map<string, Uint8Array>();
  const catalogs: string[] = [];
  const result = await exportToLake(
    items.map((message, i) => ({ id: i, message })),
    {
      putFile: async (key, bytes) => {
        if (fail?.(key)) throw new Error('S3 said no');
        files.set(key, bytes);
      },
      encode: parquetOf,
      ensureCatalog: async (tenant) => {
        catalogs.push(tenant);
      },
    },
  );
  return { files, result, catalogs };
}

describe('the data-lake export', () => {
  it('writes one Parquet file per table, tenant and day, the same keys for the same batch', async () => {
    const first = await run();
    const keys = [...first.files.keys()].sort();
    expect(keys.map((k) => k.replace(/[0-9a-f]{32}\.parquet$/, '*'))).toEqual(
      [
        `lake/events/tenant_id=${A}/dt=2026-11-20/*`,
        `lake/events/tenant_id=${A}/dt=2026-11-21/*`,
        `lake/events/tenant_id=${B}/dt=2026-11-20/*`,
        `lake/incidents/tenant_id=${A}/dt=2026-11-20/*`,
        `lake/positions/tenant_id=${A}/dt=2026-11-20/*`,
      ].sort(),
    );
    expect(first.result.failed).toEqual([]);
    expect(new Set(first.catalogs)).toEqual(new Set([A, B]));
    const again = await run([...messages].reverse());
    expect([...again.files.keys()].sort()).toEqual(keys);
  });

  it('fails exactly the messages of a file that could not be written', async () => {
    const { result } = await run(messages, (key) => key.includes('/positions/'));
    expect(result.failed.map((f) => f.id)).toEqual([1]);
  });

  it('writes Parquet that DuckDB reads back, with the columns of the table', async () => {
    const { files } = await run();
    const dir = await mkdtemp(join(tmpdir(), 'lake-unit-'));
    try {
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      const read = async (table: string) => {
        const paths: string[] = [];
        for (const [key, bytes] of files) {
          if (!key.startsWith(`lake/${table}/tenant_id=${A}/`)) continue;
          const path = join(dir, `${paths.length}-${table}.parquet`);
          await writeFile(path, bytes);
          paths.push(path);
        }
        return (
          await c.runAndReadAll(`SELECT * FROM read_parquet([${paths.map((p) => `'${p}'`).join(',')}]) ORDER BY 1, 2`)
        ).getRowObjectsJson();
      };
      const positions = await read('positions');
      expect(positions).toEqual([
        {
          event_id: 'e2',
          tenant_id: A,
          mmsi: '235000001',
          occurred_at: '2026-11-20 11:00:00',
          lat: 51.5,
          lon: 1.25,
          sog_knots: 12.5,
          cog_degrees: null,
          heading_degrees: null,
          environment_id: null,
        },
      ]);
      const incidents = await read('incidents');
      expect(incidents.map((r) => [r.incident_id, r.change, r.escalation_level]).sort()).toEqual([
        ['i1', 'incident.acknowledged', '1'],
        ['i1', 'incident.created', '1'],
      ]);
      const events = await read('events');
      expect(events.map((r) => r.event_id).sort()).toEqual(['e1', 'e2', 'e3']);
      expect(Object.keys(events[0]!)).toEqual(lakeTable('events').columns.map((col) => col.name));
      c.closeSync();
      db.closeSync();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
