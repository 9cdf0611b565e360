/**
 * Threat libraries end to end, over real HTTP against the local stack: definitions as stored
 * (ids made, defaults filled, conditions checked), the tenant's own only, the limit of 20, the
 * seed of four libraries (idempotent), the compact threat-intel listing, and the revision every
 * write moves for ingest.
 */
import { describe, expect, it } from 'vitest';
import { libraryRevisionFrom, libraryRevisionKey } from '../../shared/db/threat-libraries.js';
import { readItems } from '../../shared/db/read-batch.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { asAdmin, call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { auditEntriesOf } from '../support/seed.js';

const BASE = '/api/v1/threat-libraries';

const droneDefinition = {
  name: 'Drone over the fence',
  severity: 'high',
  weight: 0.6,
  match: { event_types: ['drone.detected'], zone_types: ['perimeter'] },
};

const create = (org: RegisteredTenant, body: Record<string, unknown> = {}, token = org.token) =>
  call('POST', BASE, { token, body: { name: 'Perimeter watch', vertical: 'security', ...body } });

async function created(org: RegisteredTenant, body: Record<string, unknown> = {}) {
  const res = await create(org, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const list = (org: RegisteredTenant, query: Record<string, string | number | boolean> = {}, token = org.token) =>
  call('GET', BASE, { token, query: { tenant_id: org.tenantId, ...query } });

const seed = (token: string, query: Record<string, string> = {}) => call('POST', `${BASE}/seed`, { token, query });

const libraryAudit = async (org: RegisteredTenant) =>
  (await auditEntriesOf(org.tenantId)).filter((e) => e.resource_type === 'threat_library');

describe('threatLibraries.create', () => {
  it('stores the definitions with their defaults filled and ids made from their names, unique in the library', async () => {
    const org = await registerTenant('TlibCreate');
    const res = await create(org, {
      description: 'What the night shift watches',
      definitions: [
        droneDefinition,
        { ...droneDefinition, weight: 0.3 },
        {
          ...droneDefinition,
          definition_id: 'custom.drone',
          name: 'Drone, named',
          active: false,
          indicators: { mmsis: ['257123450'] },
        },
        { ...droneDefinition, name: 'Ærø ferry: AIS off!' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tenant_id: org.tenantId,
      name: 'Perimeter watch',
      vertical: 'security',
      active: true,
      seed_key: null,
    });
    expect(res.body.definitions.map((d: { definition_id: string }) => d.definition_id)).toEqual([
      'drone-over-the-fence',
      'drone-over-the-fence-2',
      'custom.drone',
      'aero-ferry-ais-off',
    ]);
    expect(res.body.definitions[0]).toEqual({
      definition_id: 'drone-over-the-fence',
      name: 'Drone over the fence',
      description: '',
      severity: 'high',
      weight: 0.6,
      active: true,
      match: { event_types: ['drone.detected'], zone_types: ['perimeter'] },
      indicators: null,
    });
    expect(res.body.definitions[2]).toMatchObject({ active: false, indicators: { mmsis: ['257123450'] } });
    expect((await call('GET', `${BASE}/${res.body.library_id}`, { token: org.token })).body).toEqual(res.body);

    const [entry] = await libraryAudit(org);
    expect(entry).toMatchObject({
      action: 'threat_library.created',
      resource_id: res.body.library_id,
      user_id: org.userId,
      changes: {
        name: 'Perimeter watch',
        vertical: 'security',
        definitions: ['drone-over-the-fence', 'drone-over-the-fence-2', 'custom.drone', 'aero-ferry-ais-off'],
      },
    });
  });

  it('refuses a definition that breaks a rule, naming its field, and creates nothing', async () => {
    const org = await registerTenant('TlibBad');
    const cases: [unknown[], (string | number)[]][] = [
      [
        [
          { ...droneDefinition, definition_id: 'dup' },
          { ...droneDefinition, definition_id: 'dup' },
        ],
        ['body', 'definitions', 1, 'definition_id'],
      ],
      [
        [{ ...droneDefinition, match: { event_types: ['drone.detected'], hours: { start: '08:00', end: '08:00' } } }],
        ['body', 'definitions', 0, 'match', 'hours', 'end'],
      ],
      [
        [
          droneDefinition,
          {
            ...droneDefinition,
            name: 'Slow and fast',
            match: {
              event_types: ['vessel.loitering'],
              payload: [
                { field: 'speed_knots', op: 'gte', value: 10 },
                { field: 'speed_knots', op: 'lt', value: 10 },
              ],
            },
          },
        ],
        ['body', 'definitions', 1, 'match', 'payload', 1],
      ],
      [
        [{ ...droneDefinition, match: { event_types: ['fibre.disturbance'], keywords: ['digging', '--'] } }],
        ['body', 'definitions', 0, 'match', 'keywords', 1],
      ],
    ];
    for (const [definitions, loc] of cases) {
      const res = await create(org, { definitions });
      expect(res.status, JSON.stringify(definitions)).toBe(422);
      expect(res.body.detail).toEqual([{ loc, msg: expect.any(String), type: expect.any(String) }]);
    }
    // The schema's own rules: an event type that does not exist, a weight above 1.
    const unknownType = await create(org, {
      definitions: [{ ...droneDefinition, match: { event_types: ['ufo.sighted'] } }],
    });
    expect(unknownType.status).toBe(422);
    expect(unknownType.body.detail[0].loc.slice(0, 5)).toEqual(['body', 'definitions', 0, 'match', 'event_types']);
    expect((await create(org, { definitions: [{ ...droneDefinition, weight: 1.5 }] })).body.detail[0].loc).toEqual([
      'body',
      'definitions',
      0,
      'weight',
    ]);
    expect((await list(org)).body).toEqual([]);
  });

  it('refuses a library too large to keep (413), saying how to split it', async () => {
    const org = await registerTenant('TlibHuge');
    const ips = (n: number) => Array.from({ length: 500 }, (_, i) => `10.${n}.${Math.floor(i / 250)}.${i % 250}`);
    const definitions = Array.from({ length: 50 }, (_, n) => ({
      ...droneDefinition,
      name: `Watchlist ${n}`,
      indicators: { ips: ips(n) },
    }));
    const res = await create(org, { definitions });
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/over the 250 KB a library holds: split/);
    expect((await create(org, { definitions: definitions.slice(0, 10) })).status).toBe(201);
  });

  it('needs TENANT_ADMIN: a VIEWER may read libraries but not write them', async () => {
    const org = await registerTenant('TlibViewer');
    const viewer = await createUser(org.token, 'VIEWER');
    const lib = await created(org);
    expect((await create(org, {}, viewer.token)).status).toBe(403);
    expect(
      (await call('PATCH', `${BASE}/${lib.library_id}`, { token: viewer.token, body: { active: false } })).status,
    ).toBe(403);
    expect((await call('DELETE', `${BASE}/${lib.library_id}`, { token: viewer.token })).status).toBe(403);
    expect((await list(org, {}, viewer.token)).body.map((l: { library_id: string }) => l.library_id)).toEqual([
      lib.library_id,
    ]);
    expect((await call('GET', `${BASE}/${lib.library_id}`, { token: viewer.token })).status).toBe(200);
  });

  it('stops at 20 libraries a tenant; a deletion frees a place', async () => {
    const org = await registerTenant('TlibLimit');
    const made: string[] = [];
    for (let i = 0; i < 20; i++) made.push((await created(org, { name: `Library ${i}` })).library_id);
    const over = await create(org, { name: 'One too many' });
    expect(over.status).toBe(409);
    expect(over.body.detail).toMatch(/at most 20 threat libraries/);
    expect((await list(org, { limit: 200 })).body).toHaveLength(20);
    expect((await call('DELETE', `${BASE}/${made[0]}`, { token: org.token })).status).toBe(204);
    expect((await create(org, { name: 'Now it fits' })).status).toBe(201);
  });
});

describe('threatLibraries.list', () => {
  it('filters by vertical and active, pages oldest first, and takes the tenant from the credential (tenant_id may only name your own)', async () => {
    const org = await registerTenant('TlibList');
    const other = await registerTenant('TlibListOther');
    const harbour = await created(org, { name: 'Harbour', vertical: 'maritime' });
    const doors = await created(org, { name: 'Doors', vertical: 'security' });
    const oldMaritime = await created(org, { name: 'Old maritime', vertical: 'maritime', active: false });
    const rail = await created(org, { name: 'Rail', vertical: 'rail-signalling' });
    await created(other, { name: 'Not yours', vertical: 'maritime' });
    const ids = (res: { body: { library_id: string }[] }) => res.body.map((l) => l.library_id);

    expect(ids(await list(org))).toEqual([
      harbour.library_id,
      doors.library_id,
      oldMaritime.library_id,
      rail.library_id,
    ]);
    expect(ids(await list(org, { vertical: 'maritime' }))).toEqual([harbour.library_id, oldMaritime.library_id]);
    expect(ids(await list(org, { vertical: 'maritime', active_only: true }))).toEqual([harbour.library_id]);
    expect(ids(await list(org, { active_only: true }))).toEqual([
      harbour.library_id,
      doors.library_id,
      rail.library_id,
    ]);
    expect(ids(await list(org, { vertical: 'defense' }))).toEqual([]);
    expect(ids(await list(org, { limit: 2, offset: 1 }))).toEqual([doors.library_id, oldMaritime.library_id]);
    expect(ids(await list(org, { offset: 4 }))).toEqual([]);

    expect((await call('GET', BASE, { token: org.token })).body).toEqual((await list(org, {})).body);
    expect((await list(org, { limit: 201 })).body.detail[0].loc).toEqual(['query', 'limit']);
    expect((await list(org, { tenant_id: other.tenantId })).status).toBe(404);
    // A SUPER_ADMIN may name the tenant.
    expect(ids(await list(org, { vertical: 'rail-signalling' }, await asAdmin()))).toEqual([rail.library_id]);
  });
});

describe('threatLibraries.get', () => {
  it("answers another tenant's library exactly as an unknown one", async () => {
    const org = await registerTenant('TlibGet');
    const other = await registerTenant('TlibGetOther');
    const lib = await created(org);
    const theirs = await call('GET', `${BASE}/${lib.library_id}`, { token: other.token });
    const unknown = await call('GET', `${BASE}/0190f2a4-1b2c-7d3e-8f40-123456789abc`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(unknown.body);
    expect(theirs.body).toEqual({ detail: 'Threat library not found' });
    expect(
      (await call('PATCH', `${BASE}/${lib.library_id}`, { token: other.token, body: { name: 'Mine now' } })).status,
    ).toBe(404);
    expect((await call('DELETE', `${BASE}/${lib.library_id}`, { token: other.token })).status).toBe(404);
    expect((await call('GET', `${BASE}/not-a-uuid`, { token: org.token })).status).toBe(422);
    expect((await call('GET', `${BASE}/${lib.library_id}`, { token: org.token })).body.name).toBe('Perimeter watch');
  });
});

describe('threatLibraries.update', () => {
  it('replaces the definitions as given, keeps the fields not given, and audits which definitions changed', async () => {
    const org = await registerTenant('TlibPatch');
    const lib = await created(org, {
      definitions: [
        { ...droneDefinition, definition_id: 'drone' },
        {
          name: 'Tailgating',
          severity: 'medium',
          weight: 0.4,
          match: { event_types: ['tailgating.detected'], zone_types: ['entrance'] },
        },
      ],
    });
    const res = await call('PATCH', `${BASE}/${lib.library_id}`, {
      token: org.token,
      body: {
        name: 'Perimeter and doors',
        definitions: [
          { ...droneDefinition, definition_id: 'drone', weight: 0.8 },
          {
            name: 'Forced door',
            severity: 'high',
            weight: 0.6,
            match: { event_types: ['door.forced'], hours: { start: '22:00', end: '06:00' } },
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Perimeter and doors',
      vertical: 'security',
      active: true,
      created_at: lib.created_at,
    });
    expect(
      res.body.definitions.map((d: { definition_id: string; weight: number }) => [d.definition_id, d.weight]),
    ).toEqual([
      ['drone', 0.8],
      ['forced-door', 0.6],
    ]);
    expect(res.body.updated_at > lib.updated_at).toBe(true);
    expect((await call('GET', `${BASE}/${lib.library_id}`, { token: org.token })).body).toEqual(res.body);

    // Switching it off leaves the definitions as they are; the same again changes nothing and is not audited.
    const off = await call('PATCH', `${BASE}/${lib.library_id}`, { token: org.token, body: { active: false } });
    expect(off.body).toMatchObject({ active: false, definitions: res.body.definitions });
    expect(
      (await call('PATCH', `${BASE}/${lib.library_id}`, { token: org.token, body: { active: false } })).status,
    ).toBe(200);

    const updates = (await libraryAudit(org)).filter((e) => e.action === 'threat_library.updated');
    expect(updates.map((e) => e.changes)).toEqual([
      {
        name: { from: 'Perimeter watch', to: 'Perimeter and doors' },
        definitions: { added: ['forced-door'], removed: ['tailgating'], changed: ['drone'] },
      },
      { active: { from: true, to: false } },
    ]);
  });

  it('refuses a bad definition in the new list by its place, and leaves the library as it was', async () => {
    const org = await registerTenant('TlibPatchBad');
    const lib = await created(org, { definitions: [droneDefinition] });
    const exactlyFive = { field: 'gap_minutes', op: 'eq', value: 5 };
    const res = await call('PATCH', `${BASE}/${lib.library_id}`, {
      token: org.token,
      body: {
        definitions: [
          droneDefinition,
          {
            ...droneDefinition,
            match: {
              event_types: ['ais.gap'],
              payload: [exactlyFive, { field: 'signal.db', op: 'lt', value: 3 }, { ...exactlyFive, op: 'gt' }],
            },
          },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'definitions', 1, 'match', 'payload', 2]);
    expect((await call('PATCH', `${BASE}/${lib.library_id}`, { token: org.token, body: {} })).status).toBe(422);
    expect((await call('GET', `${BASE}/${lib.library_id}`, { token: org.token })).body).toEqual(lib);
  });

  it("every write moves the tenant's threat-library revision, which ingest reads to know its kept definitions changed", async () => {
    const org = await registerTenant('TlibRevision');
    const tenantId = systemTenant(org.tenantId);
    const revision = async () =>
      libraryRevisionFrom(await readItems([libraryRevisionKey(tenantId)]), tenantId)!.revision;
    expect(await revision()).toBe(0);
    const lib = await created(org);
    expect(await revision()).toBe(1);
    await call('PATCH', `${BASE}/${lib.library_id}`, { token: org.token, body: { definitions: [droneDefinition] } });
    expect(await revision()).toBe(2);
    await call('DELETE', `${BASE}/${lib.library_id}`, { token: org.token });
    expect(await revision()).toBe(3);
    await seed(org.token);
    expect(await revision()).toBe(4);
    // A seed that finds everything there writes nothing.
    await seed(org.token);
    expect(await revision()).toBe(4);
  });
});

describe('threatLibraries.delete', () => {
  it('deletes once, audited; again is 404', async () => {
    const org = await registerTenant('TlibDel');
    const lib = await created(org, { definitions: [droneDefinition] });
    expect((await call('DELETE', `${BASE}/${lib.library_id}`, { token: org.token })).status).toBe(204);
    expect((await call('GET', `${BASE}/${lib.library_id}`, { token: org.token })).status).toBe(404);
    expect((await call('DELETE', `${BASE}/${lib.library_id}`, { token: org.token })).status).toBe(404);
    expect((await list(org)).body).toEqual([]);
    const deleted = (await libraryAudit(org)).filter((e) => e.action === 'threat_library.deleted');
    expect(deleted).toEqual([
      expect.objectContaining({
        resource_id: lib.library_id,
        changes: { name: 'Perimeter watch', vertical: 'security', definitions: ['drone-over-the-fence'] },
      }),
    ]);
  });
});

describe('threatLibraries.seed', () => {
  it('creates four libraries, one per vertical, with 12 definitions, each audited; a second call creates nothing and says what it skipped', async () => {
    const org = await registerTenant('TlibSeed');
    const first = await seed(org.token);
    expect(first.status).toBe(200);
    expect(first.body.created).toEqual({ libraries: 4, definitions: 12 });
    expect(first.body.skipped).toEqual({ libraries: [], definitions: [] });
    expect(first.body.libraries).toHaveLength(4);

    const libraries = (await list(org)).body as {
      library_id: string;
      vertical: string;
      seed_key: string;
      active: boolean;
      definitions: any[];
    }[];
    expect(libraries.map((l) => l.vertical).sort()).toEqual(['defense', 'infrastructure', 'maritime', 'security']);
    expect(libraries.map((l) => l.library_id).sort()).toEqual([...first.body.libraries].sort());
    expect(
      libraries.every((l) => l.active && l.seed_key === `gatehouse.${l.vertical}` && l.definitions.length === 3),
    ).toBe(true);
    const definitions = new Map(
      libraries.flatMap((l) => l.definitions.map((d) => [d.definition_id, { ...d, vertical: l.vertical }])),
    );
    expect(definitions.size).toBe(12);
    expect(definitions.get('maritime.cable-loitering')).toMatchObject({
      vertical: 'maritime',
      active: true,
      indicators: null,
      description: expect.stringContaining('ICPC'),
      match: {
        event_types: ['vessel.loitering'],
        zone_types: ['waterside', 'critical'],
        payload: [
          { field: 'speed_knots', op: 'lte', value: 2 },
          { field: 'duration_minutes', op: 'gte', value: 30 },
        ],
      },
    });
    expect(definitions.get('maritime.ais-gap-restricted')).toMatchObject({
      match: {
        event_types: ['ais.gap'],
        zone_types: ['restricted'],
        payload: [{ field: 'gap_minutes', op: 'gte', value: 60 }],
      },
    });
    expect(definitions.get('security.tailgating-entrance')!.match).toMatchObject({
      event_types: ['tailgating.detected'],
      zone_types: expect.arrayContaining(['entrance']),
    });
    expect(definitions.get('security.repeated-access-denials')!.match).toEqual({
      event_types: ['access.denied'],
      repeat: { count: 5 },
    });
    expect(definitions.get('defense.drone-over-perimeter')!.match).toMatchObject({
      event_types: ['drone.detected'],
      zone_types: expect.arrayContaining(['perimeter', 'critical']),
    });
    expect(definitions.get('infrastructure.fibre-digging')!.match).toMatchObject({
      event_types: ['fibre.disturbance'],
      keywords: expect.arrayContaining(['digging', 'excavation']),
    });
    for (const d of definitions.values()) {
      expect(d.description.length, d.definition_id).toBeGreaterThan(100);
      expect(d.definition_id.startsWith(`${d.vertical}.`)).toBe(true);
    }

    const createdEntries = (await libraryAudit(org)).filter((e) => e.action === 'threat_library.created');
    expect(createdEntries.map((e) => e.resource_id).sort()).toEqual([...first.body.libraries].sort());
    expect(createdEntries.every((e) => (e.changes as { via?: string }).via === 'seed')).toBe(true);

    const second = await seed(org.token);
    expect(second.status).toBe(200);
    expect(second.body.created).toEqual({ libraries: 0, definitions: 0 });
    expect(second.body.skipped.libraries).toEqual(first.body.libraries);
    expect([...second.body.skipped.definitions].sort()).toEqual([...definitions.keys()].sort());
    expect(second.body.libraries).toEqual(first.body.libraries);
    expect((await list(org)).body).toEqual(libraries);
    expect(await libraryAudit(org)).toHaveLength(4);
  });

  it('re-creates what the tenant deleted and keeps what it changed', async () => {
    const org = await registerTenant('TlibReseed');
    const first = (await seed(org.token)).body;
    const libraries = (await list(org)).body as {
      library_id: string;
      vertical: string;
      definitions: { definition_id: string; weight: number; indicators: null }[];
    }[];
    const maritime = libraries.find((l) => l.vertical === 'maritime')!;
    const defense = libraries.find((l) => l.vertical === 'defense')!;
    // Maritime renamed, its cable definition deleted, its AIS-gap definition re-weighted; defense deleted.
    // (A definition as answered has `indicators: null` when it has none; as sent, it leaves them out.)
    const kept = maritime.definitions
      .filter((d) => d.definition_id !== 'maritime.cable-loitering')
      .map(({ indicators: _none, ...d }) =>
        d.definition_id === 'maritime.ais-gap-restricted' ? { ...d, weight: 0.9 } : d,
      );
    const patched = await call('PATCH', `${BASE}/${maritime.library_id}`, {
      token: org.token,
      body: { name: 'Our cable watch', definitions: kept },
    });
    expect(patched.status).toBe(200);
    expect((await call('DELETE', `${BASE}/${defense.library_id}`, { token: org.token })).status).toBe(204);

    const again = await seed(org.token);
    expect(again.body.created).toEqual({ libraries: 1, definitions: 4 });
    expect(again.body.libraries).toEqual(first.libraries);
    expect(again.body.skipped.libraries).not.toContain(defense.library_id);
    expect(again.body.skipped.definitions).toContain('maritime.ais-gap-restricted');
    expect(again.body.skipped.definitions).not.toContain('maritime.cable-loitering');

    const now = (await call('GET', `${BASE}/${maritime.library_id}`, { token: org.token })).body;
    expect(now.name).toBe('Our cable watch');
    expect(now.definitions.map((d: { definition_id: string; weight: number }) => [d.definition_id, d.weight])).toEqual([
      ['maritime.ais-gap-restricted', 0.9],
      ['maritime.night-waterside-approach', 0.4],
      ['maritime.cable-loitering', 0.6],
    ]);
    expect((await call('GET', `${BASE}/${defense.library_id}`, { token: org.token })).body.definitions).toHaveLength(3);
    const seededUpdate = (await libraryAudit(org)).filter(
      (e) => e.action === 'threat_library.updated' && (e.changes as { via?: string }).via === 'seed',
    );
    expect(seededUpdate).toEqual([
      expect.objectContaining({
        resource_id: maritime.library_id,
        changes: { definitions: { added: ['maritime.cable-loitering'], removed: [], changed: [] }, via: 'seed' },
      }),
    ]);
  });

  it('is for administrators: an OPERATOR or a VIEWER is refused; a SUPER_ADMIN may seed a tenant it names', async () => {
    const org = await registerTenant('TlibSeedRoles');
    const operator = await createUser(org.token, 'OPERATOR');
    const viewer = await createUser(org.token, 'VIEWER');
    expect((await seed(operator.token)).status).toBe(403);
    expect((await seed(viewer.token)).status).toBe(403);
    expect((await list(org)).body).toEqual([]);
    const bySuperAdmin = await seed(await asAdmin(), { tenant_id: org.tenantId });
    expect(bySuperAdmin.body.created).toEqual({ libraries: 4, definitions: 12 });
    expect((await list(org)).body).toHaveLength(4);
  });

  it('creates nothing when the libraries would pass the limit of 20', async () => {
    const org = await registerTenant('TlibSeedFull');
    for (let i = 0; i < 17; i++) await created(org, { name: `Library ${i}` });
    const res = await seed(org.token);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/at most 20 threat libraries; this would add 4/);
    expect((await list(org, { limit: 200 })).body).toHaveLength(17);
  });
});

describe('threatIntel.libraries', () => {
  it('sums each library up for intelligence consumers: counts by state and severity, the event types watched, no match conditions', async () => {
    const org = await registerTenant('TlibIntel');
    const other = await registerTenant('TlibIntelOther');
    await seed(org.token);
    const own = await created(org, {
      name: 'Harbour night watch',
      vertical: 'maritime',
      definitions: [
        { ...droneDefinition, severity: 'critical' },
        { name: 'Switched off', severity: 'low', weight: 0.1, active: false, match: { event_types: ['glass.break'] } },
      ],
    });
    const viewer = await createUser(org.token, 'VIEWER');
    const res = await call('GET', '/api/v1/threat-intel/libraries', { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    const summary = res.body.find((s: { library_id: string }) => s.library_id === own.library_id);
    expect(summary).toEqual({
      library_id: own.library_id,
      name: 'Harbour night watch',
      vertical: 'maritime',
      active: true,
      seed_key: null,
      definition_count: 2,
      active_definition_count: 1,
      active_by_severity: { low: 0, medium: 0, high: 0, critical: 1 },
      event_types: ['drone.detected'],
      updated_at: own.updated_at,
    });
    const maritimeSeed = res.body.find((s: { seed_key: string | null }) => s.seed_key === 'gatehouse.maritime');
    expect(maritimeSeed).toMatchObject({
      definition_count: 3,
      active_definition_count: 3,
      active_by_severity: { medium: 1, high: 2 },
    });
    expect(maritimeSeed.event_types).toEqual(['motion.detected', 'intrusion.detected', 'ais.gap', 'vessel.loitering']);
    expect(res.body.every((s: object) => !('definitions' in s))).toBe(true);

    const maritimeOnly = await call('GET', '/api/v1/threat-intel/libraries', {
      token: viewer.token,
      query: { vertical: 'maritime', limit: 1, offset: 1 },
    });
    expect(maritimeOnly.body.map((s: { library_id: string }) => s.library_id)).toEqual([own.library_id]);
    expect(
      (await call('GET', '/api/v1/threat-intel/libraries', { token: org.token, query: { tenant_id: other.tenantId } }))
        .status,
    ).toBe(404);
    expect((await call('GET', '/api/v1/threat-intel/libraries', { token: other.token })).body).toEqual([]);
    expect(
      (
        await call('GET', '/api/v1/threat-intel/libraries', {
          token: await asAdmin(),
          query: { tenant_id: org.tenantId },
        })
      ).body,
    ).toEqual(res.body);
  });
});
