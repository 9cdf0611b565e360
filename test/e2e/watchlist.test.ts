/**
 * The watchlist's entries end to end, over real HTTP against the local stack: each type's value
 * kept one way, a line's coordinates copied from the tenant's own file (thinned when long), the
 * same entity refused twice, the limit of 1,000, the tenant's own only, audit entries, and the
 * revision every write moves for whoever keeps the watchlist compiled.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import { readWatchlistRevision } from '../../shared/db/watchlist/entries.js';
import { watchlistKeys } from '../../shared/db/watchlist/keys.js';
import { MAX_WATCHED_LINE_VERTICES } from '../../shared/vocabulary/watchlist.js';
import { asAdmin, call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { CABLE, CABLE_KML, FAR_FROM_CABLE, ON_CABLE, positionReport } from '../support/ais.js';
import { until } from '../support/threat-site.js';
import { countStreamRecords } from '../../functions/workers/count-analytics.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { geojsonBytes, uploadMapFile } from '../support/geo-files.js';
import { auditEntriesOf } from '../support/seed.js';

const BASE = '/api/v1/watchlist/entries';
const UNKNOWN = '0190f2a4-1b2c-7d3e-8f40-123456789abc';

const add = (org: RegisteredTenant, body: Record<string, unknown>, token = org.token) =>
  call('POST', BASE, { token, body });

async function added(org: RegisteredTenant, body: Record<string, unknown>) {
  const res = await add(org, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const list = (org: RegisteredTenant, query: Record<string, string | number> = {}, token = org.token) =>
  call('GET', BASE, { token, query });
const ids = (res: { body: { entry_id: string }[] }) => res.body.map((e) => e.entry_id);
const watchlistAudit = async (org: RegisteredTenant) =>
  (await auditEntriesOf(org.tenantId)).filter((e) => e.resource_type === 'watchlist_entry');

/** A tenant with an environment holding the Dover cable (KML, tagged) and a long pipeline of 1,201 vertices (GeoJSON). */
async function withLines(label: string) {
  const org = await registerTenant(label);
  const env = await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Strait', type: 'port' } });
  const environmentId: string = env.body.environment_id;
  const cable = await uploadMapFile(org.token, environmentId, 'cables.kml', Buffer.from(CABLE_KML, 'utf8'));
  expect(cable.status).toBe(201);
  const tagged = await call(
    'PATCH',
    `/api/v1/environments/${environmentId}/infrastructure/${cable.body.file_id}/lines`,
    { token: org.token, body: { kind: 'subsea_cable' } },
  );
  expect(tagged.status, tagged.text).toBe(200);
  const coordinates = Array.from({ length: 1201 }, (_, i) => [Number((2 + i * 0.001).toFixed(3)), 51.5, 0]);
  const pipeline = await uploadMapFile(
    org.token,
    environmentId,
    'pipeline.geojson',
    geojsonBytes({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { name: 'Long pipe' }, geometry: { type: 'LineString', coordinates } }],
    }),
  );
  expect(pipeline.status).toBe(201);
  return { org, environmentId, cableFile: cable.body.file_id as string, pipelineFile: pipeline.body.file_id as string };
}

describe('watchlist.add', () => {
  it('keeps each type of value one way, and answers the entry as kept', async () => {
    const org = await registerTenant('WatchAdd');
    const cases: [string, string | number, string | number][] = [
      ['vessel', ' 257123450', '257123450'],
      ['vessel', 2570001, '002570001'],
      ['ip', '10.1.2.3/8', '10.0.0.0/8'],
      ['ip', '2001:0DB8::7', '2001:db8::7'],
      ['ip', '::ffff:198.51.100.4', '198.51.100.4'],
      ['domain', 'C2.Example.NET.', 'c2.example.net'],
      ['asn', 'AS64500', 64500],
      ['country', 'no', 'NO'],
    ];
    for (const [entity_type, value, keptAs] of cases) {
      const entry = await added(org, { entity_type, value, label: '  Watched  ', note: 'Seen near the quay' });
      expect(entry).toEqual({
        entry_id: expect.any(String),
        tenant_id: org.tenantId,
        entity_type,
        value: keptAs,
        label: 'Watched',
        note: 'Seen near the quay',
        line: null,
        created_at: expect.any(String),
        created_by: org.userId,
      });
    }
    const bare = await added(org, { entity_type: 'asn', value: 64501, label: '   ' });
    expect(bare).toMatchObject({ value: 64501, label: null, note: null });
    const [first] = await watchlistAudit(org);
    expect(first).toMatchObject({
      action: 'watchlist_entry.created',
      user_id: org.userId,
      changes: { entity_type: 'vessel', value: '257123450', label: 'Watched' },
    });
  });

  it('refuses a value that is not one of its type at body.value, and an unknown type at body.entity_type', async () => {
    const org = await registerTenant('WatchBad');
    const bad: [string, unknown][] = [
      ['vessel', '12345'],
      ['ip', '10.0.0.0/33'],
      ['ip', 'example.com'],
      ['domain', 'localhost'],
      ['domain', 42],
      ['asn', 'AS0'],
      ['country', 'UK'],
      ['line', 'cable-1'],
    ];
    for (const [entity_type, value] of bad) {
      const res = await add(org, { entity_type, value });
      expect(res.status, `${String(entity_type)} ${String(value)}`).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ['body', 'value'], msg: expect.any(String), type: expect.any(String) }]);
    }
    expect((await add(org, { entity_type: 'country', value: 'UK' })).body.detail[0].msg).toMatch(/GB/);
    expect((await add(org, { entity_type: 'person', value: 'x' })).body.detail[0].loc).toEqual(['body', 'entity_type']);
    expect((await add(org, { entity_type: 'ip' })).status).toBe(422);
    expect((await add(org, { entity_type: 'ip', value: '10.0.0.1', colour: 'red' })).status).toBe(422);
    expect((await list(org)).body).toEqual([]);
  });

  it("keeps a line's name, kind and vertices, thinning a long one evenly and saying so", async () => {
    const { org, environmentId, cableFile, pipelineFile } = await withLines('WatchLine');
    // Named as the lines listing writes it (<file_id>:<line_id>), kept as <file_id>/<line_id>.
    const listed = (await call('GET', '/api/v1/infrastructure/lines', { token: org.token })).body.items.find(
      (l: { file_id: string }) => l.file_id === cableFile,
    );
    const cable = await added(org, { entity_type: 'line', value: listed.line_id, label: 'Channel Link 1' });
    expect(cable.value).toBe(`${cableFile}/0`);
    expect(cable.line).toEqual({
      file_id: cableFile,
      line_id: '0',
      environment_id: environmentId,
      name: 'Channel Link 1',
      kind: 'subsea_cable',
      vertices: CABLE,
      thinned: false,
      source_vertices: 3,
    });
    const pipe = await added(org, { entity_type: 'line', value: `${pipelineFile}/0` });
    expect(pipe.line).toMatchObject({ name: 'Long pipe', kind: 'unclassified', thinned: true, source_vertices: 1201 });
    expect(pipe.line.vertices).toHaveLength(MAX_WATCHED_LINE_VERTICES);
    expect(pipe.line.vertices[0]).toEqual([2, 51.5]);
    expect(pipe.line.vertices.at(-1)).toEqual([3.2, 51.5]);
    expect((await call('GET', `${BASE}/${pipe.entry_id}`, { token: org.token })).body).toEqual(pipe);
  });

  it("answers another tenant's line exactly as an unknown one: 404", async () => {
    const { cableFile } = await withLines('WatchLineOwner');
    const org = await registerTenant('WatchLineOther');
    const theirs = await add(org, { entity_type: 'line', value: `${cableFile}/0` });
    const unknownFile = await add(org, { entity_type: 'line', value: `${UNKNOWN}/0` });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(unknownFile.body);
    expect(theirs.body).toEqual({ detail: 'Infrastructure line not found' });
    const own = await withLines('WatchLineUnknown');
    expect((await add(own.org, { entity_type: 'line', value: `${own.cableFile}/7` })).body).toEqual(theirs.body);
    expect((await list(org)).body).toEqual([]);
  });

  it('refuses the same entity twice, however it is written, naming the entry that watches it', async () => {
    const org = await registerTenant('WatchTwice');
    const first = await added(org, { entity_type: 'ip', value: '10.0.0.0/8' });
    const again = await add(org, { entity_type: 'ip', value: '10.200.1.1/8' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`The ip 10.0.0.0/8 is watched already (entry ${first.entry_id})`);
    expect((await add(org, { entity_type: 'domain', value: 'example.com' })).status).toBe(201);
    expect((await add(org, { entity_type: 'domain', value: 'EXAMPLE.com.' })).status).toBe(409);
    // The same text as another type is another entity.
    expect((await add(org, { entity_type: 'vessel', value: '257123450' })).status).toBe(201);
    expect((await add(org, { entity_type: 'ip', value: '10.1.0.0/16' })).status).toBe(201);
    expect((await list(org)).body).toHaveLength(4);
    // Another tenant may watch the same.
    expect(
      (await add(await registerTenant('WatchTwiceOther'), { entity_type: 'ip', value: '10.0.0.0/8' })).status,
    ).toBe(201);
  });

  it('stops at 1,000 entries a tenant (409, nothing written); a removal frees a place', async () => {
    const org = await registerTenant('WatchLimit');
    const one = await added(org, { entity_type: 'country', value: 'SE' });
    // 998 more by the count alone: the 999th and 1,000th go through the API.
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: watchlistKeys.count(org.tenantId),
        UpdateExpression: 'ADD #c :n',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':n': 997 },
      }),
    );
    await added(org, { entity_type: 'country', value: 'DK' });
    await added(org, { entity_type: 'country', value: 'FI' });
    const revision = (await readWatchlistRevision(org.tenantId)).revision;
    const over = await add(org, { entity_type: 'country', value: 'IS' });
    expect(over.status).toBe(409);
    expect(over.body.detail).toBe('A tenant watches at most 1000 entities: remove an entry first');
    expect((await list(org)).body).toHaveLength(3);
    expect((await readWatchlistRevision(org.tenantId)).revision).toBe(revision);
    // The same entity past the limit is refused for being watched, not for the limit.
    expect((await add(org, { entity_type: 'country', value: 'DK' })).body.detail).toMatch(/watched already/);
    expect((await call('DELETE', `${BASE}/${one.entry_id}`, { token: org.token })).status).toBe(204);
    expect((await add(org, { entity_type: 'country', value: 'IS' })).status).toBe(201);
  });

  it('needs OPERATOR: a VIEWER may read the watchlist but not change it', async () => {
    const org = await registerTenant('WatchViewer');
    const viewer = await createUser(org.token, 'VIEWER');
    const operator = await createUser(org.token, 'OPERATOR');
    const entry = (await add(org, { entity_type: 'vessel', value: '257123450' }, operator.token)).body;
    expect(entry.created_by).toBe(operator.userId);
    expect((await add(org, { entity_type: 'vessel', value: '257123451' }, viewer.token)).status).toBe(403);
    expect((await call('DELETE', `${BASE}/${entry.entry_id}`, { token: viewer.token })).status).toBe(403);
    expect(ids(await list(org, {}, viewer.token))).toEqual([entry.entry_id]);
    expect((await call('GET', `${BASE}/${entry.entry_id}`, { token: viewer.token })).status).toBe(200);
  });

  it("adds to the tenant named by tenant_id only for a SUPER_ADMIN; another's tenant_id is 404", async () => {
    const org = await registerTenant('WatchScope');
    const other = await registerTenant('WatchScopeOther');
    expect((await add(org, { tenant_id: other.tenantId, entity_type: 'country', value: 'NO' })).status).toBe(404);
    const byAdmin = await add(org, { tenant_id: org.tenantId, entity_type: 'country', value: 'NO' }, await asAdmin());
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.tenant_id).toBe(org.tenantId);
    expect(ids(await list(org))).toEqual([byAdmin.body.entry_id]);
    expect((await list(other)).body).toEqual([]);
  });
});

describe('watchlist.list', () => {
  let org: RegisteredTenant;
  let made: { entry_id: string; entity_type: string }[];
  beforeAll(async () => {
    org = await registerTenant('WatchList');
    made = [];
    for (const [entity_type, value] of [
      ['ip', '203.0.113.7'],
      ['domain', 'example.org'],
      ['ip', '198.51.100.0/24'],
      ['vessel', '257123450'],
      ['ip', '2001:db8::/32'],
    ]) {
      made.push(await added(org, { entity_type, value }));
    }
    await added(await registerTenant('WatchListOther'), { entity_type: 'ip', value: '203.0.113.8' });
  });

  it('lists the entries newest first, of one type when asked, by page', async () => {
    const newestFirst = made.map((e) => e.entry_id).reverse();
    expect(ids(await list(org))).toEqual(newestFirst);
    expect(ids(await list(org, { entity_type: 'ip' }))).toEqual(
      made
        .filter((e) => e.entity_type === 'ip')
        .map((e) => e.entry_id)
        .reverse(),
    );
    expect(ids(await list(org, { entity_type: 'country' }))).toEqual([]);
    expect(ids(await list(org, { limit: 2, offset: 1 }))).toEqual(newestFirst.slice(1, 3));
    expect(ids(await list(org, { entity_type: 'ip', limit: 1, offset: 1 }))).toEqual([made[2]!.entry_id]);
    expect(ids(await list(org, { offset: 5 }))).toEqual([]);
  });

  it("names the caller's own tenant only (a SUPER_ADMIN may name any), and checks its filters", async () => {
    const other = await registerTenant('WatchListScope');
    expect((await list(org, { tenant_id: other.tenantId })).status).toBe(404);
    expect(ids(await list(org, { tenant_id: org.tenantId }))).toHaveLength(5);
    expect(ids(await list(org, { tenant_id: org.tenantId, entity_type: 'vessel' }, await asAdmin()))).toEqual([
      made[3]!.entry_id,
    ]);
    expect((await list(org, { entity_type: 'person' })).body.detail[0].loc).toEqual(['query', 'entity_type']);
    expect((await list(org, { limit: 201 })).body.detail[0].loc).toEqual(['query', 'limit']);
    expect((await list(org, { typ: 'ip' })).status).toBe(422);
  });
});

describe('watchlist.get', () => {
  it("answers another tenant's entry exactly as an unknown one", async () => {
    const org = await registerTenant('WatchGet');
    const other = await registerTenant('WatchGetOther');
    const entry = await added(org, { entity_type: 'domain', value: 'example.com', note: 'Phishing kit host' });
    expect((await call('GET', `${BASE}/${entry.entry_id}`, { token: org.token })).body).toEqual(entry);
    const theirs = await call('GET', `${BASE}/${entry.entry_id}`, { token: other.token });
    const unknown = await call('GET', `${BASE}/${UNKNOWN}`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(unknown.body);
    expect(theirs.body).toEqual({ detail: 'Watchlist entry not found' });
    expect(
      (await call('GET', `${BASE}/${entry.entry_id}`, { token: org.token, query: { tenant_id: other.tenantId } }))
        .status,
    ).toBe(404);
    expect((await call('GET', `${BASE}/not-a-uuid`, { token: org.token })).status).toBe(422);
  });
});

describe('watchlist.remove', () => {
  it('removes the entry (audited, the entity free to be watched again); again, or as another tenant, is 404', async () => {
    const org = await registerTenant('WatchRemove');
    const other = await registerTenant('WatchRemoveOther');
    const entry = await added(org, { entity_type: 'vessel', value: '257123450', label: 'Northern Star' });
    expect((await call('DELETE', `${BASE}/${entry.entry_id}`, { token: other.token })).status).toBe(404);
    expect((await call('DELETE', `${BASE}/${entry.entry_id}`, { token: org.token })).status).toBe(204);
    expect((await call('GET', `${BASE}/${entry.entry_id}`, { token: org.token })).status).toBe(404);
    const again = await call('DELETE', `${BASE}/${entry.entry_id}`, { token: org.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Watchlist entry not found' });
    const audit = (await watchlistAudit(org)).filter((e) => e.action === 'watchlist_entry.deleted');
    expect(audit).toEqual([
      expect.objectContaining({
        resource_id: entry.entry_id,
        user_id: org.userId,
        changes: { entity_type: 'vessel', value: '257123450', label: 'Northern Star' },
      }),
    ]);
    const rewatched = await added(org, { entity_type: 'vessel', value: '257123450' });
    expect(rewatched.entry_id).not.toBe(entry.entry_id);
  });

  it("every add and remove moves the tenant's watchlist revision; a refused one does not", async () => {
    const org = await registerTenant('WatchRevision');
    const revision = async () => (await readWatchlistRevision(org.tenantId)).revision;
    expect(await revision()).toBe(0);
    const entry = await added(org, { entity_type: 'asn', value: 'AS64500' });
    expect(await revision()).toBe(1);
    expect((await add(org, { entity_type: 'asn', value: '64500' })).status).toBe(409);
    expect(await revision()).toBe(1);
    await call('DELETE', `${BASE}/${entry.entry_id}`, { token: org.token });
    expect(await revision()).toBe(2);
    expect((await readWatchlistRevision(org.tenantId)).changedAtMs).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('watchlist.alerts', () => {
  interface Alert {
    alert_id: string;
    entry_id: string;
    entity_type: string;
    value: string;
    label: string;
    trigger: string;
    subject: string;
    details: Record<string, any>;
  }
  const alerts = async (org: RegisteredTenant, query: Record<string, string> = {}) => {
    const res = await call('GET', '/api/v1/watchlist/alerts', {
      token: org.token,
      query: { tenant_id: org.tenantId, ...query },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as Alert[];
  };

  it('raises one alert per watched entry an event names, once however often the stream brings the event', async () => {
    const org = await registerTenant('WatchAlerts');
    const other = await registerTenant('WatchAlertsOther');
    const domain = await added(org, { entity_type: 'domain', value: 'example.net', label: 'C2 domain' });
    const range = await added(org, { entity_type: 'ip', value: '203.0.113.0/24' });
    await added(org, { entity_type: 'vessel', value: '235009802' });
    const event = await call('POST', '/api/v1/events', {
      token: org.token,
      body: {
        type: 'sensor.alert',
        payload: {
          callback_url: 'https://beacon.c2.example.net/x',
          peer: '203.0.113.9',
          also: '203.0.113.10',
          mmsi: '366000003',
        },
      },
    });
    expect(event.status, event.text).toBe(201);
    const raised = await until(
      () => alerts(org),
      (list) => list.length >= 2,
      'two alerts',
    );
    expect(raised).toHaveLength(2);
    const byEntry = Object.fromEntries(raised.map((a) => [a.entry_id, a]));
    expect(byEntry[domain.entry_id]).toMatchObject({
      entity_type: 'domain',
      value: 'example.net',
      label: 'C2 domain',
      trigger: 'event',
      details: {
        event_id: event.body.event_id,
        event_type: 'sensor.alert',
        mention: { type: 'domain', value: 'beacon.c2.example.net' },
      },
    });
    // The range is touched once, by the first address that falls in it.
    expect(byEntry[range.entry_id]).toMatchObject({
      entity_type: 'ip',
      value: '203.0.113.0/24',
      trigger: 'event',
      details: { mention: { type: 'ip', value: '203.0.113.9' } },
    });
    // Filters.
    expect((await alerts(org, { entity_type: 'domain' })).map((a) => a.entry_id)).toEqual([domain.entry_id]);
    expect((await alerts(org, { entry_id: range.entry_id })).map((a) => a.entry_id)).toEqual([range.entry_id]);
    expect(await alerts(org, { trigger: 'score' })).toEqual([]);
    // Each alert is an event of its own, on every path events take.
    const asEvent = await call('GET', `/api/v1/events/${raised[0]!.alert_id}`, { token: org.token });
    expect(asEvent.body).toMatchObject({ type: 'watchlist.alert', payload: { entry_id: raised[0]!.entry_id } });
    // Another tenant sees nothing of it, and may not name its entries (404, as unknown ones).
    expect(await alerts(other)).toEqual([]);
    for (const entryId of [domain.entry_id, UNKNOWN]) {
      expect(
        (
          await call('GET', '/api/v1/watchlist/alerts', {
            token: other.token,
            query: { tenant_id: other.tenantId, entry_id: entryId },
          })
        ).status,
      ).toBe(404);
    }

    // The stream brings the event again (a retried batch): nothing more is raised.
    const item = (
      await db.send(
        new GetCommand({ TableName: TABLE, Key: { PK: `T#${org.tenantId}#EVENT`, SK: event.body.event_id } }),
      )
    ).Item!;
    expect(item, 'the stored event').toBeDefined();
    const replay = {
      eventName: 'INSERT' as const,
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: '900000000000000000001',
        NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      },
    };
    expect(await countStreamRecords([replay, replay])).toEqual({ batchItemFailures: [] });
    // A later event naming the domain, reporting something two days old: its alert arrives (its id
    // carries the event's receipt, which ingest takes), and the replayed one never did.
    const later = await call('POST', '/api/v1/events', {
      token: org.token,
      body: {
        type: 'sensor.alert',
        occurred_at: new Date(Date.now() - 2 * 86_400_000).toISOString(),
        payload: { host: 'example.net' },
      },
    });
    expect(later.status).toBe(201);
    const after = await until(
      () => alerts(org),
      (list) => list.length >= 3,
      'the later alert',
    );
    expect(after).toHaveLength(3);
    expect(after.filter((a) => a.details.event_id === event.body.event_id)).toHaveLength(2);
    // Dates filter by when an alert was raised: the two-day-old report's alert was raised now.
    const recent = await alerts(org, { start_date: new Date(Date.now() - 10 * 60_000).toISOString() });
    expect(recent.map((a) => a.details.event_id)).toContain(later.body.event_id);
    expect(await alerts(org, { start_date: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(
      (
        await call('GET', '/api/v1/watchlist/alerts', {
          token: org.token,
          query: { start_date: '2026-11-02T00:00:00.000Z', end_date: '2026-11-01T00:00:00.000Z' },
        })
      ).status,
    ).toBe(422);
  }, 60_000);

  it('raises an alert when a watched vessel reports, or any vessel comes within 2 km of a watched line: once an hour each', async () => {
    const { org, environmentId, cableFile } = await withLines('WatchPositions');
    const cable = await added(org, { entity_type: 'line', value: `${cableFile}/0` });
    const loiterer = await added(org, { entity_type: 'vessel', value: '257000002' });
    // Positions every 5 minutes for 40 minutes, inside one UTC hour: one vessel on the cable, one 20 km off.
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
    const reports = Array.from({ length: 9 }, (_, i) => new Date(hour + (5 + i * 5) * 60_000)).flatMap((at) => [
      positionReport(257000002, at, { ...ON_CABLE, sog: 0.2, cog: 10 }),
      positionReport(366000003, at, { ...FAR_FROM_CABLE, sog: 11, cog: 45 }),
    ]);
    const res = await call('POST', '/api/v1/events/batch', {
      token: org.token,
      body: {
        events: reports.map((r) => ({
          type: 'ais.position',
          environment_id: environmentId,
          occurred_at: r.at.toISOString(),
          payload: { nmea: r.nmea[0] },
        })),
      },
    });
    expect(res.status, res.text).toBe(201);
    const raised = await until(
      () => alerts(org, { trigger: 'position' }),
      (list) => list.length >= 2,
      'the position alerts',
      30_000,
    );
    expect(raised).toHaveLength(2);
    const byEntry = Object.fromEntries(raised.map((a) => [a.entry_id, a]));
    expect(byEntry[loiterer.entry_id]).toMatchObject({
      entity_type: 'vessel',
      value: '257000002',
      details: { mmsi: '257000002' },
    });
    expect(byEntry[cable.entry_id]).toMatchObject({ entity_type: 'line', details: { mmsi: '257000002' } });
    expect(byEntry[cable.entry_id]!.details.distance_m).toBeLessThan(2000);
  }, 60_000);
});
