/**
 * The data lake (issue 18, item 5), end to end: events ingested through the API for two tenants
 * reach the lake through the bus, the `data-lake` queue and the export worker the local runtime
 * runs; DuckDB over tenant A's files counts exactly A's events, still after the worker is handed
 * the same messages again (the same batch, and the same messages in other batches); and SQL that
 * reaches for another tenant's file, a local file, the network, or tries to write, fails with 422.
 */
import type { SQSEvent } from 'aws-lambda';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as exportLake } from '../../functions/workers/export-lake.js';
import { BUCKET, getObjectBytes, s3 } from '../../shared/adapters/s3.js';
import { installLocalAdapters } from '../../shared/local/compose.js';
import { EVENTS_SOURCE } from '../../shared/vocabulary/bus.js';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { feedFixture, startFeedServer } from '../support/feed-server.js';

const N = 37;
const M = 12;

async function ingest(org: RegisteredTenant, count: number): Promise<string[]> {
  const events = Array.from({ length: count }, (_, i) => ({
    type: i % 2 ? 'motion.detected' : 'access.denied',
    severity: 'low',
    description: `lake ${i}`,
  }));
  const res = await call('POST', '/api/v1/events/batch', { token: org.token, body: { events } });
  expect(res.status).toBe(201);
  return (res.body.events ?? res.body.items ?? res.body).map((e: { event_id: string }) => e.event_id);
}

async function query(token: string, sql: string, maxRows?: number) {
  return call('POST', '/api/v1/data-lake/query', { token, body: { sql, ...(maxRows ? { max_rows: maxRows } : {}) } });
}

/**
 * Asks until the lake answers `want` (the export runs behind the bus and the queue), for at most
 * 45 s: a bound for an export that never comes, not a speed.
 */
async function untilCount(token: string, sql: string, want: number): Promise<number> {
  let got = -1;
  const deadline = Date.now() + 45_000;
  for (let i = 0; got !== want && (i === 0 || Date.now() < deadline); i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 200));
    const res = await query(token, sql);
    expect(res.status).toBe(200);
    got = res.body.rows[0][0];
  }
  return got;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

/** The bus message of an event, as the rule hands it to the queue: EventBridge's envelope. */
function sqsEventOf(events: Record<string, unknown>[], tag: string): SQSEvent {
  return {
    Records: events.map((detail, i) => ({
      messageId: `${tag}-${i}`,
      receiptHandle: `${tag}-${i}`,
      body: JSON.stringify({
        version: '0',
        id: `${tag}-${i}`,
        source: EVENTS_SOURCE,
        'detail-type': detail.type,
        time: detail.received_at,
        detail,
      }),
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:gatehouse-data-lake',
      awsRegion: 'us-east-1',
    })),
  } as unknown as SQSEvent;
}

let a: RegisteredTenant;
let b: RegisteredTenant;
let aEvents: Record<string, unknown>[];
let dir: string;

beforeAll(async () => {
  // The worker's handler runs in this process too: with the local runtime's adapters (no Glue).
  await installLocalAdapters();
  [a, b] = await Promise.all([registerTenant('LakeA'), registerTenant('LakeB')]);
  await Promise.all([ingest(a, N), ingest(b, M)]);
  const listed = await call('GET', '/api/v1/events', { token: a.token, query: { limit: 100 } });
  expect(listed.status).toBe(200);
  aEvents = listed.body.items ?? listed.body;
  expect(aEvents).toHaveLength(N);
  dir = await mkdtemp(join(tmpdir(), 'lake-test-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('data-lake.query', () => {
  it("counts exactly the tenant's events, also after the worker is fed the same messages again", async () => {
    expect(await untilCount(a.token, 'SELECT count(*) FROM events', N)).toBe(N);
    expect(await untilCount(b.token, 'SELECT count(*) FROM events', M)).toBe(M);

    // The same batch again: the same file, rewritten. Then the same messages split into other batches: new files, the same records.
    const again = sqsEventOf(aEvents, 'again');
    expect((await exportLake(again)).batchItemFailures).toEqual([]);
    expect((await exportLake(again)).batchItemFailures).toEqual([]);
    expect((await exportLake(sqsEventOf(aEvents.slice(0, 5), 'split'))).batchItemFailures).toEqual([]);
    const files = await keysUnder(`lake/events/tenant_id=${a.tenantId}/`);
    expect(files.length).toBeGreaterThan(1);

    const count = await query(a.token, 'SELECT count(*) AS n, count(DISTINCT event_id) AS ids FROM events');
    expect(count.status).toBe(200);
    expect(count.body).toMatchObject({
      columns: [
        { name: 'n', type: 'BIGINT' },
        { name: 'ids', type: 'BIGINT' },
      ],
      rows: [[N, N]],
      truncated: false,
      engine: 'duckdb',
    });
    expect(count.body.bytes_scanned).toBeGreaterThan(0);

    // What was ingested is what the lake holds, field by field.
    const rows = await query(a.token, 'SELECT event_id, type, description FROM events ORDER BY event_id', 1000);
    expect(rows.body.rows).toEqual(
      [...aEvents]
        .sort((x, y) => String(x.event_id).localeCompare(String(y.event_id)))
        .map((e) => [e.event_id, e.type, e.description]),
    );
  });

  it('returns at most max_rows rows and says it truncated', async () => {
    const res = await query(a.token, 'SELECT event_id FROM events', 10);
    expect(res.status).toBe(200);
    expect(res.body.rows).toHaveLength(10);
    expect(res.body.truncated).toBe(true);
    expect((await query(a.token, 'SELECT event_id FROM events', 1000)).body.truncated).toBe(false);
  });

  it("fails for another tenant's files, local files, the network, writes and more than one statement", async () => {
    const [bKey] = await keysUnder(`lake/events/tenant_id=${b.tenantId}/`);
    expect(bKey).toBeDefined();
    // B's file, also copied to a local path the server can see.
    const bCopy = join(dir, 'b.parquet');
    await writeFile(bCopy, (await getObjectBytes(bKey!))!);
    const hostile = [
      `SELECT * FROM read_parquet('${bCopy}')`,
      `SELECT * FROM read_parquet('s3://${BUCKET}/${bKey}')`,
      `SELECT * FROM read_parquet('lake/events/tenant_id=${b.tenantId}/*/*.parquet')`,
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/hostname')",
      "SELECT * FROM glob('/*')",
      `SELECT * FROM read_csv('http://127.0.0.1:1/x.csv')`,
      "SELECT * FROM read_json('https://example.com/x.json')",
      'INSTALL httpfs',
      'LOAD httpfs',
      `ATTACH '${join(dir, 'x.db')}' AS x`,
      `COPY events TO '${join(dir, 'out.csv')}'`,
      'CREATE TABLE stolen AS SELECT * FROM events',
      "INSERT INTO events (event_id) VALUES ('x')",
      'DELETE FROM events',
      'SET enable_external_access = true',
      'SELECT 1; SELECT 2',
      'SELEC nonsense',
    ];
    for (const sql of hostile) {
      const res = await query(a.token, sql);
      expect({ sql, status: res.status }).toEqual({ sql, status: 422 });
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'sql'], type: 'sql_error' });
      expect(res.body.detail[0].msg).toEqual(expect.any(String));
    }
    // Nothing of the above changed A's lake, and B's rows never showed.
    const after = await query(a.token, `SELECT count(*) FROM events WHERE tenant_id <> '${a.tenantId}'`);
    expect(after.body.rows).toEqual([[0]]);
    expect((await query(a.token, 'SELECT count(*) FROM events')).body.rows).toEqual([[N]]);
  });

  it('lets a VIEWER query, and refuses without a credential', async () => {
    const viewer = await createUser(a.token, 'VIEWER');
    expect((await query(viewer.token, 'SELECT count(*) FROM events')).body.rows).toEqual([[N]]);
    expect((await call('POST', '/api/v1/data-lake/query', { body: { sql: 'SELECT 1' } })).status).toBe(401);
    expect(
      (await call('POST', '/api/v1/data-lake/query', { token: a.token, body: { sql: 'SELECT 1', max_rows: 1001 } }))
        .status,
    ).toBe(422);
  });
});

describe('data-lake.query over connector records', () => {
  it("holds what each tenant's connector read, once per record, the latest version of a changed one, and nothing of another tenant", async () => {
    const capture = JSON.parse(feedFixture('usgs-quakes/all_day.2022-09-29.trimmed.geojson').toString()) as {
      features: { id: string; properties: { mag: number } }[];
    };
    const docs: Record<string, Buffer> = { '/quakes.geojson': Buffer.from(JSON.stringify(capture)) };
    const server = await startFeedServer(docs);
    try {
      const connect = async (org: RegisteredTenant) => {
        const res = await call('POST', '/api/v1/integrations', {
          token: org.token,
          body: { name: 'Quakes', kind: 'feed', config: { feed: 'usgs-quakes', url: `${server.base}/quakes.geojson` } },
        });
        expect(res.status, res.text).toBe(201);
        return res.body.integration_id as string;
      };
      const poll = async (org: RegisteredTenant, id: string) => {
        const res = await call('POST', `/api/v1/connectors/${id}/poll`, { token: org.token });
        expect(res.body.outcome, res.text).toBe('ok');
        return res.body;
      };
      const n = capture.features.length;
      const [qa, qb] = [await connect(a), await connect(b)];
      expect((await poll(a, qa)).records.stored).toBe(n);
      // B's poll stores nothing (A kept the records first), yet B's lake gets what B's connector read.
      expect((await poll(b, qb)).records).toMatchObject({ stored: 0, unchanged: n });
      // The rows go through the data-lake queue and its worker: asked until they are there.
      const count = "SELECT count(*) FROM feed_records WHERE feed = 'usgs-quakes'";
      const distinct = "SELECT count(*), count(DISTINCT record_id) FROM feed_records WHERE feed = 'usgs-quakes'";
      expect(await untilCount(a.token, count, n)).toBe(n);
      expect(await untilCount(b.token, count, n)).toBe(n);
      expect((await query(a.token, distinct)).body.rows).toEqual([[n, n]]);
      const prefix = `lake/feed_records/tenant_id=${a.tenantId}/`;
      const filesBefore = await keysUnder(prefix);
      expect(filesBefore).toHaveLength(1);

      // A second poll of the same document exports nothing; a revised quake is exported alone, and the lake answers its latest magnitude.
      await poll(a, qa);
      const revised = capture.features[0]!;
      revised.properties.mag = 6.1;
      docs['/quakes.geojson'] = Buffer.from(JSON.stringify(capture));
      expect((await poll(a, qa)).records).toMatchObject({ updated: 1 });
      const magnitude = `SELECT json_extract(record, '$.magnitude')::DOUBLE FROM feed_records WHERE record_id = '${revised.id}'`;
      for (let i = 0; i < 100 && (await query(a.token, magnitude)).body.rows[0]?.[0] !== 6.1; i++)
        await new Promise((r) => setTimeout(r, 200));
      // One file more, holding the revised quake alone: the unchanged second poll sent nothing.
      const filesAfter = await keysUnder(prefix);
      expect(filesAfter).toHaveLength(2);
      expect(filesAfter).toEqual(expect.arrayContaining(filesBefore));
      expect((await query(a.token, distinct)).body.rows).toEqual([[n, n]]);
      const latest = await query(
        a.token,
        `SELECT json_extract(record, '$.magnitude')::DOUBLE, lat IS NOT NULL, record_time IS NOT NULL, truncated FROM feed_records WHERE record_id = '${revised.id}'`,
      );
      expect(latest.body.rows).toEqual([[6.1, true, true, false]]);
      // B has not polled since: its lake still holds the magnitude its connector read.
      const theirs = await query(
        b.token,
        `SELECT json_extract(record, '$.magnitude')::DOUBLE FROM feed_records WHERE record_id = '${revised.id}'`,
      );
      expect(theirs.body.rows[0][0]).not.toBe(6.1);
    } finally {
      await server.close();
    }
  });
});

describe('data-lake.tables', () => {
  it('lists the tables and their columns, which a query can read', async () => {
    const res = await call('GET', '/api/v1/data-lake/tables', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.tables.map((t: { name: string }) => t.name)).toEqual([
      'events',
      'positions',
      'incidents',
      'feed_records',
    ]);
    expect(res.body.max_rows).toBe(1000);
    for (const table of res.body.tables as { name: string; columns: { name: string }[] }[]) {
      const q = await query(
        a.token,
        `SELECT ${table.columns.map((c) => `"${c.name}"`).join(', ')} FROM ${table.name} LIMIT 1`,
      );
      expect(q.status).toBe(200);
      expect(q.body.columns.map((c: { name: string }) => c.name)).toEqual(table.columns.map((c) => c.name));
    }
  });
});
