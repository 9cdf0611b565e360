/** The audit log API: every change of the tenant, filtered by index, newest first; who, when, from where, what changed. */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import { reindexAuditOfTenant } from '../../shared/db/audit/entries.js';
import { digestTenant, HOUR_MS, SETTLE_MS } from '../../shared/domain/audit/digest.js';
import * as keys from '../../shared/db/item-keys.js';
import { derivedTimeId, newTimeId, timeOfId } from '../../shared/ids.js';
import { asAdmin, call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';

let org: RegisteredTenant;
let keyId: string;
beforeAll(async () => {
  org = await registerTenant('Audited');
  // Changes by the administrator with a token, and by a program with one of their API keys.
  expect(
    (await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'North gate', type: 'port' } }))
      .status,
  ).toBe(201);
  const key = (
    await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'soc feed', role: 'OPERATOR' } })
  ).body;
  keyId = key.key_id;
  for (const title of ['Fence cut', 'Gate forced']) {
    expect(
      (await call('POST', '/api/v1/incidents', { apiKey: key.api_key, body: { title, severity: 'high' } })).status,
    ).toBe(201);
  }
});

/** An entry as written by an older release: no index keys, no `actor_type`, no seal. */
const putOldEntry = (tenant: RegisteredTenant, logId: string) =>
  db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...keys.audit(tenant.tenantId, logId),
        entity: 'AUDIT',
        log_id: logId,
        tenant_id: tenant.tenantId,
        action: 'zone.created',
        resource_type: 'zone',
        resource_id: 'z-1',
        user_id: tenant.userId,
        timestamp: new Date(timeOfId(logId)).toISOString(),
        request_id: 'r-1',
        source_ip: '192.0.2.1',
      },
    }),
  );

/** Edits an entry straight in the table, as someone with access to it could; returns the item as it was. */
async function editInTable(tenant: RegisteredTenant, logId: string, update: string, values: Record<string, unknown>) {
  const key = keys.audit(tenant.tenantId, logId);
  const { Item: original } = await db.send(new GetCommand({ TableName: TABLE, Key: key }));
  await db.send(
    new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: update, ExpressionAttributeValues: values }),
  );
  return { key, original: original! };
}

const createIncident = (tenant: RegisteredTenant, title: string) =>
  call('POST', '/api/v1/incidents', { token: tenant.token, body: { title, severity: 'high' } });

const list = (query: Record<string, string> = {}, token = org.token, tenantId: string = org.tenantId) =>
  call('GET', `/api/v1/audit-logs/${tenantId}`, { token, query });

describe('auditLogs.list', () => {
  it('lists every change newest first, each saying who (user or key), when, from where and what changed', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const { items, total, limit, skip } = res.body;
    expect({ limit, skip }).toEqual({ limit: 50, skip: 0 });
    expect(total).toBe(items.length);
    const ids = items.map((e: { log_id: string }) => e.log_id);
    expect(ids).toEqual([...ids].sort().reverse());
    const actions = items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['environment.created', 'api_key.created', 'incident.created']));

    const byKey = items.find((e: { action: string }) => e.action === 'incident.created');
    expect(byKey).toMatchObject({
      tenant_id: org.tenantId,
      resource_type: 'incident',
      user_id: org.userId,
      actor_type: 'api_key',
      api_key_id: keyId,
    });
    expect(byKey.source_ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(byKey.changes).toMatchObject({ title: expect.any(String) });
    const byToken = items.find((e: { action: string }) => e.action === 'environment.created');
    expect(byToken).toMatchObject({ user_id: org.userId, actor_type: 'user', api_key_id: null });
  });

  it('filters by action, resource type and user through their indexes, and pages with a total', async () => {
    const created = await list({ action: 'incident.created' });
    expect(created.body.total).toBe(2);
    expect(created.body.items.map((e: { action: string }) => e.action)).toEqual([
      'incident.created',
      'incident.created',
    ]);

    const incidents = await list({ resource_type: 'incident', limit: '1' });
    expect(incidents.body).toMatchObject({ total: 2, limit: 1, skip: 0 });
    const second = await list({ resource_type: 'incident', limit: '1', skip: '1' });
    expect(second.body.items[0].log_id < incidents.body.items[0].log_id).toBe(true);

    const mine = await list({ user_id: org.userId });
    expect(mine.body.total).toBeGreaterThanOrEqual(4);
    expect(mine.body.items.every((e: { user_id: string }) => e.user_id === org.userId)).toBe(true);
    expect((await list({ user_id: 'nobody' })).body).toMatchObject({ items: [], total: 0 });
    // Several at once: the index of one, the others filtered.
    expect((await list({ action: 'incident.created', resource_type: 'environment' })).body.total).toBe(0);
  });

  it('takes start_date and end_date both inclusive', async () => {
    const [newest] = (await list({ action: 'incident.created', limit: '1' })).body.items;
    const exact = await list({ start_date: newest.timestamp, end_date: newest.timestamp, action: 'incident.created' });
    expect(exact.body.items.map((e: { log_id: string }) => e.log_id)).toEqual([newest.log_id]);
    const after = new Date(Date.parse(newest.timestamp) + 1).toISOString();
    expect((await list({ start_date: after, action: 'incident.created' })).body.total).toBe(0);
    const bad = await list({ start_date: newest.timestamp, end_date: '2020-01-01T00:00:00.000Z' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'end_date']);
  });

  it("is read by the tenant's viewers; another tenant's id is 404 as an unknown one, except for SUPER_ADMIN", async () => {
    const viewer = await createUser(org.token, 'VIEWER');
    expect((await list({}, viewer.token)).status).toBe(200);
    const other = await registerTenant('Nosy');
    const foreign = await list({}, other.token, org.tenantId);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await list({}, other.token, '0193a2b4-0000-7000-8000-000000000000')).body);
    const admin = await list({ action: 'incident.created' }, await asAdmin());
    expect(admin.status).toBe(200);
    expect(admin.body.total).toBe(2);
  });

  it('finds entries written before the indexes once the migration gave them their keys', async () => {
    const old = await registerTenant('Legacy');
    // An entry as written before: no index keys, no actor_type, no seal.
    const logId = newTimeId();
    await putOldEntry(old, logId);
    expect((await list({ action: 'zone.created' }, old.token, old.tenantId)).body.total).toBe(0);
    expect(await reindexAuditOfTenant(old.tenantId)).toBe(1);
    expect(await reindexAuditOfTenant(old.tenantId)).toBe(0);
    const found = await list({ action: 'zone.created' }, old.token, old.tenantId);
    expect(found.body.items).toEqual([
      expect.objectContaining({ log_id: logId, actor_type: 'user', api_key_id: null }),
    ]);
    expect((await list({ user_id: old.userId, resource_type: 'zone' }, old.token, old.tenantId)).body.total).toBe(1);
  });
});

describe('auditLogs.get', () => {
  it('answers one entry by id; an unknown id, or one of another tenant, is 404', async () => {
    const [entry] = (await list({ limit: '1' })).body.items;
    const res = await call('GET', `/api/v1/audit-logs/${org.tenantId}/${entry.log_id}`, { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(entry);
    expect((await call('GET', `/api/v1/audit-logs/${org.tenantId}/${newTimeId()}`, { token: org.token })).status).toBe(
      404,
    );
    const other = await registerTenant('NosyToo');
    expect(
      (await call('GET', `/api/v1/audit-logs/${other.tenantId}/${entry.log_id}`, { token: other.token })).status,
    ).toBe(404);
  });
});

describe('auditLogs.verify', () => {
  it('proves the log unchanged from its hourly digests, and names the entry edited straight in the table, or removed', async () => {
    const tenant = await registerTenant('Proven');
    expect(
      (await call('POST', '/api/v1/environments', { token: tenant.token, body: { name: 'Quay', type: 'port' } }))
        .status,
    ).toBe(201);
    expect((await createIncident(tenant, 'Seal broken')).status).toBe(201);
    // The worker's step, as its schedule would run it once the hour has settled.
    const hourStart = Date.now() - (Date.now() % HOUR_MS);
    expect(await digestTenant(tenant.tenantId, hourStart + HOUR_MS + SETTLE_MS)).toBeGreaterThanOrEqual(1);
    // A second run finds nothing left to digest.
    expect(await digestTenant(tenant.tenantId, hourStart + HOUR_MS + SETTLE_MS)).toBe(0);
    const verify = () =>
      call('GET', `/api/v1/audit-logs/${tenant.tenantId}/verify`, {
        token: tenant.token,
        query: { from: new Date(hourStart - HOUR_MS).toISOString() },
      });

    const clean = await verify();
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({
      valid: true,
      first_mismatch: null,
      digested_until: new Date(hourStart).toISOString(),
    });
    expect(clean.body.entries_checked).toBeGreaterThanOrEqual(3);

    // Someone with access to the table rewrites who made a change.
    const entries = (await list({ resource_type: 'incident' }, tenant.token, tenant.tenantId)).body.items;
    const target = entries[0];
    const { key, original } = await editInTable(tenant, target.log_id, 'SET source_ip = :ip', {
      ':ip': '203.0.113.9',
    });
    const edited = await verify();
    expect(edited.body).toMatchObject({
      valid: false,
      first_mismatch: { kind: 'entry_changed', log_id: target.log_id, hour_start: new Date(hourStart).toISOString() },
    });

    // Put back as it was: valid again. Removed: named as missing.
    await db.send(new PutCommand({ TableName: TABLE, Item: original }));
    expect((await verify()).body.valid).toBe(true);
    await db.send(new DeleteCommand({ TableName: TABLE, Key: key }));
    expect((await verify()).body.first_mismatch).toEqual({
      kind: 'entry_missing',
      log_id: target.log_id,
      hour_start: new Date(hourStart).toISOString(),
    });
    await db.send(new PutCommand({ TableName: TABLE, Item: original }));

    // The digest itself rewritten to match a forged count: its own hash no longer does.
    const digestKey = keys.auditDigest(tenant.tenantId, new Date(hourStart).toISOString());
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: digestKey,
        UpdateExpression: 'SET entry_count = entry_count + :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    expect((await verify()).body.first_mismatch).toEqual({
      kind: 'digest_changed',
      hour_start: new Date(hourStart).toISOString(),
    });

    // Restored; then the next hour digested (empty) and this hour's digest deleted: the chain names the hole.
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: digestKey,
        UpdateExpression: 'SET entry_count = entry_count - :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    expect(await digestTenant(tenant.tenantId, hourStart + 2 * HOUR_MS + SETTLE_MS)).toBe(1);
    const next = new Date(hourStart + HOUR_MS).toISOString();
    const both = () =>
      call('GET', `/api/v1/audit-logs/${tenant.tenantId}/verify`, {
        token: tenant.token,
        query: { from: new Date(hourStart).toISOString(), to: next },
      });
    expect((await both()).body).toMatchObject({ valid: true, hours_checked: 2, digested_until: next });
    await db.send(new DeleteCommand({ TableName: TABLE, Key: digestKey }));
    expect((await both()).body.first_mismatch).toEqual({
      kind: 'digest_missing',
      hour_start: new Date(hourStart).toISOString(),
    });

    // Another tenant's log is not theirs to verify.
    const other = await registerTenant('NosyVerify');
    expect((await call('GET', `/api/v1/audit-logs/${tenant.tenantId}/verify`, { token: other.token })).status).toBe(
      404,
    );
  });
});

describe('auditLogs.verify: every entry sealed as it is written', () => {
  const verifyNow = (tenant: RegisteredTenant) =>
    call('GET', `/api/v1/audit-logs/${tenant.tenantId}/verify`, { token: tenant.token });
  const hourOf = (logId: string) => new Date(timeOfId(logId) - (timeOfId(logId) % HOUR_MS)).toISOString();

  it('names an entry edited straight in the table seconds after it was written, before its hour is digested', async () => {
    const tenant = await registerTenant('Sealed');
    expect((await createIncident(tenant, 'Door forced')).status).toBe(201);
    // Untouched: valid, every entry's seal checked, though no hour is digested yet.
    const clean = await verifyNow(tenant);
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({
      valid: true,
      hours_checked: 0,
      first_mismatch: null,
      entries_unsealed: 0,
      entries_edited: 0,
      edited_entries: [],
    });
    expect(clean.body.seals_checked).toBe(clean.body.entries_checked);
    expect(clean.body.entries_checked).toBeGreaterThanOrEqual(2);

    // Someone with access to the table rewrites where a change came from and what it was.
    const [target] = (await list({ resource_type: 'incident' }, tenant.token, tenant.tenantId)).body.items;
    const { key, original } = await editInTable(tenant, target.log_id, 'SET source_ip = :ip, changes.title = :title', {
      ':ip': '203.0.113.9',
      ':title': 'Nothing happened',
    });
    const edited = await verifyNow(tenant);
    expect(edited.body).toMatchObject({
      valid: false,
      hours_checked: 0,
      entries_edited: 1,
      edited_entries: [
        {
          log_id: target.log_id,
          hour_start: hourOf(target.log_id),
          kind: 'fields_changed',
          fields: ['source_ip', 'changes'],
        },
      ],
    });

    // The seal rewritten too (to claim other fields): the seal no longer holds.
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET seal.#fields = :fields',
        ExpressionAttributeNames: { '#fields': 'fields' },
        ExpressionAttributeValues: { ':fields': 'x'.repeat((original.seal as { fields: string }).fields.length) },
      }),
    );
    expect((await verifyNow(tenant)).body.edited_entries).toEqual([
      { log_id: target.log_id, hour_start: hourOf(target.log_id), kind: 'seal_changed', fields: [] },
    ]);

    // The seal removed, to pass the entry off as written before sealing: named, not counted as unsealed.
    await db.send(
      new PutCommand({ TableName: TABLE, Item: { ...original, source_ip: '203.0.113.9', seal: undefined } }),
    );
    expect((await verifyNow(tenant)).body).toMatchObject({
      valid: false,
      entries_unsealed: 0,
      edited_entries: [{ log_id: target.log_id, kind: 'seal_missing', fields: [] }],
    });

    // Put back as it was: valid again.
    await db.send(new PutCommand({ TableName: TABLE, Item: original }));
    expect((await verifyNow(tenant)).body).toMatchObject({ valid: true, entries_edited: 0 });
  });

  it('names an entry removed in the current hour when another entry of its transaction names it', async () => {
    const tenant = await registerTenant('SealedBatch');
    // One transaction, an entry for each of the four seeded libraries: sealed together.
    expect(
      (
        await call('POST', '/api/v1/threat-libraries/seed', {
          token: tenant.token,
          query: { tenant_id: tenant.tenantId },
        })
      ).status,
    ).toBe(200);
    const seeded = (await list({ action: 'threat_library.created' }, tenant.token, tenant.tenantId)).body.items;
    expect(seeded).toHaveLength(4);
    expect((await verifyNow(tenant)).body).toMatchObject({ valid: true, entries_edited: 0 });
    const gone = seeded[1];
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.audit(tenant.tenantId, gone.log_id) }));
    expect((await verifyNow(tenant)).body).toMatchObject({
      valid: false,
      edited_entries: [{ log_id: gone.log_id, hour_start: hourOf(gone.log_id), kind: 'entry_removed', fields: [] }],
    });
  });

  it('counts entries written before sealing as unverifiable by their seal, not as edited', async () => {
    const tenant = await registerTenant('PreSeal');
    // An entry as written before entries were sealed: an hour before the tenant's sealed ones.
    await putOldEntry(tenant, derivedTimeId(Date.now() - HOUR_MS, tenant.tenantId, 0));
    const res = await verifyNow(tenant);
    expect(res.body).toMatchObject({ valid: true, entries_unsealed: 1, entries_edited: 0, edited_entries: [] });
    expect(res.body.seals_checked).toBe(res.body.entries_checked - 1);
  });
});

describe('auditLogs.export', () => {
  it('streams a time range oldest first as NDJSON, each line the entry as the API answers it', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const res = await call('GET', `/api/v1/audit-logs/${org.tenantId}/export`, { token: org.token, query: { from } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="audit-${org.tenantId}.ndjson"`);
    const lines = res.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const listed = (await list({ start_date: from, limit: '200' })).body.items;
    expect(lines).toEqual([...listed].reverse());
  });

  it('answers CSV to Accept: text/csv, which a CSV parser reads back to the same entries', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const res = await call('GET', `/api/v1/audit-logs/${org.tenantId}/export`, {
      token: org.token,
      query: { from },
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parse<Record<string, string>>(res.text, { columns: true });
    const listed = [...(await list({ start_date: from, limit: '200' })).body.items].reverse();
    expect(rows.map((r) => r.log_id)).toEqual(listed.map((e: { log_id: string }) => e.log_id));
    const incident = rows.find((r) => r.action === 'incident.created')!;
    const original = listed.find((e: { log_id: string }) => e.log_id === incident.log_id);
    expect(incident).toMatchObject({
      actor_type: 'api_key',
      api_key_id: keyId,
      user_id: org.userId,
      resource_type: 'incident',
    });
    expect(JSON.parse(incident.changes!)).toEqual(original.changes);
  });

  it('refuses a range over 31 days, or reversed, naming the field; another tenant is 404', async () => {
    const long = await call('GET', `/api/v1/audit-logs/${org.tenantId}/export`, {
      token: org.token,
      query: { from: '2026-01-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' },
    });
    expect(long.status).toBe(422);
    expect(long.body.detail[0].loc).toEqual(['query', 'to']);
    const other = await registerTenant('NosyExport');
    expect(
      (
        await call('GET', `/api/v1/audit-logs/${org.tenantId}/export`, {
          token: other.token,
          query: { from: new Date().toISOString() },
        })
      ).status,
    ).toBe(404);
  });
});
