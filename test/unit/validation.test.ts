import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../shared/http/errors.js';
import { requestValidators } from '../../shared/http/validation.js';
import { routeById } from '../../shared/routes/index.js';

/** Runs a route's validators over an event the way middy would, and returns the event or the issues. */
async function validate(routeId: string, event: Record<string, unknown>) {
  const request = { event: { pathParameters: {}, queryStringParameters: {}, ...event }, context: {} };
  try {
    for (const v of requestValidators(routeById(routeId))) await v.before?.(request as never);
    return { event: request.event, issues: null };
  } catch (err) {
    if (err instanceof RequestValidationError) return { event: request.event, issues: err.issues };
    throw err;
  }
}

describe('paging', () => {
  it('fills the spec defaults: limit 50, offset 0', async () => {
    const { event, issues } = await validate('tenants.list', {});
    expect(issues).toBeNull();
    expect(event.queryStringParameters).toEqual({ limit: 50, offset: 0 });
  });

  it('coerces query strings to integers', async () => {
    const { event } = await validate('tenants.list', { queryStringParameters: { limit: '200', offset: '5' } });
    expect(event.queryStringParameters).toEqual({ limit: 200, offset: 5 });
  });

  it.each([
    ['limit', '0', 'minimum'],
    ['limit', '201', 'maximum'],
    ['offset', '-1', 'minimum'],
    ['offset', '10001', 'maximum'],
    // Not plain decimal: refused before Ajv's coercion could read it as a number.
    ['limit', 'ten', 'int_parsing'],
    ['limit', 'Infinity', 'int_parsing'],
    ['limit', '0x10', 'int_parsing'],
    ['limit', ' 5', 'int_parsing'],
    ['offset', '1e309', 'int_parsing'],
  ])('%s=%s is a 422 on query.%s', async (name, value, type) => {
    const { issues } = await validate('tenants.list', { queryStringParameters: { [name]: value } });
    expect(issues).toEqual([{ loc: ['query', name], msg: expect.any(String), type }]);
  });

  it('refuses unknown query parameters', async () => {
    const { issues } = await validate('tenants.list', { queryStringParameters: { limt: '5' } });
    expect(issues).toEqual([{ loc: ['query', 'limt'], msg: 'unknown field', type: 'extra_forbidden' }]);
  });
});

describe('path parameters', () => {
  it('a tenant id that is not a uuid is a 422 on path.tenant_id', async () => {
    const { issues } = await validate('tenants.get', { pathParameters: { tenant_id: 'not-a-uuid' } });
    expect(issues).toEqual([{ loc: ['path', 'tenant_id'], msg: 'must be a valid uuid', type: 'uuid_format' }]);
  });

  it('a uuid passes', async () => {
    const { issues } = await validate('tenants.get', {
      pathParameters: { tenant_id: '0193a5f2-7c1e-7000-8000-000000000001' },
    });
    expect(issues).toBeNull();
  });
});

describe('bodies', () => {
  it('reports every problem with its location', async () => {
    const { issues } = await validate('tenants.create', { body: { plan: 'gold', extra: 1 } });
    expect(issues).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'name'], msg: 'field required', type: 'missing' },
        { loc: ['body', 'plan'], msg: 'must be one of: free, pro, enterprise', type: 'enum' },
        { loc: ['body', 'extra'], msg: 'unknown field', type: 'extra_forbidden' },
      ]),
    );
    expect(issues).toHaveLength(3);
  });

  it('a missing body is a 422 on body', async () => {
    const { issues } = await validate('tenants.create', {});
    expect(issues).toEqual([{ loc: ['body'], msg: 'a JSON body is required', type: 'missing' }]);
  });

  it('does not coerce body values: a number given as a string is an error', async () => {
    const { issues } = await validate('tenants.config.update', {
      pathParameters: { tenant_id: '0193a5f2-7c1e-7000-8000-000000000001' },
      body: { incident_threshold: '0.5' },
    });
    expect(issues).toEqual([{ loc: ['body', 'incident_threshold'], msg: expect.any(String), type: 'type' }]);
  });

  it('locates problems inside nested objects and arrays', async () => {
    const { issues } = await validate('tenants.config.update', {
      pathParameters: { tenant_id: '0193a5f2-7c1e-7000-8000-000000000001' },
      body: {
        escalation_policy: {
          levels: [
            { after_minutes: 5, notify_roles: ['OPERATOR'] },
            { after_minutes: 0, notify_roles: ['OPERATOR'] },
          ],
        },
      },
    });
    expect(issues).toEqual([
      { loc: ['body', 'escalation_policy', 'levels', 1, 'after_minutes'], msg: expect.any(String), type: 'minimum' },
    ]);
  });

  it('an empty update is refused', async () => {
    const { issues } = await validate('tenants.update', {
      pathParameters: { tenant_id: '0193a5f2-7c1e-7000-8000-000000000001' },
      body: {},
    });
    expect(issues).toEqual([{ loc: ['body'], msg: 'at least one field is required', type: 'too_short' }]);
  });
});

describe('tagged unions (a oneOf with a discriminator)', () => {
  const drone = { name: 'Dock', kind: 'drone', config: { url: 'https://dock.example/api' } };

  it("a drone integration's body with its own settings passes", async () => {
    const { issues } = await validate('integrations.create', { body: drone });
    expect(issues).toBeNull();
  });

  it('a setting of another kind is refused at the field, naming the kind', async () => {
    const { issues } = await validate('integrations.create', {
      body: { ...drone, config: { ...drone.config, webhook_url: 'https://hooks.slack.com/services/T/B/x' } },
    });
    expect(issues).toEqual([
      { loc: ['body', 'config', 'webhook_url'], msg: 'unknown field for `kind` `drone`', type: 'extra_forbidden' },
    ]);
  });

  it("a kind's missing setting is refused at the field, naming the kind", async () => {
    const { issues } = await validate('integrations.create', { body: { name: 'Chat', kind: 'slack', config: {} } });
    expect(issues).toEqual([
      { loc: ['body', 'config', 'webhook_url'], msg: 'field required for `kind` `slack`', type: 'missing' },
    ]);
  });

  it('a nested union names both tags: a feed without a public source needs its url', async () => {
    const { issues } = await validate('integrations.create', {
      body: { name: 'Lists', kind: 'feed', config: { feed: 'stix-indicators', radius_km: 5 } },
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        {
          loc: ['body', 'config', 'url'],
          msg: 'field required for `kind` `feed`, `feed` `stix-indicators`',
          type: 'missing',
        },
        {
          loc: ['body', 'config', 'radius_km'],
          msg: 'unknown field for `kind` `feed`, `feed` `stix-indicators`',
          type: 'extra_forbidden',
        },
      ]),
    );
    expect(issues).toHaveLength(2);
  });

  it('an unknown or missing tag is one issue on the tag', async () => {
    expect((await validate('integrations.create', { body: { ...drone, kind: 'fax' } })).issues).toEqual([
      { loc: ['body', 'kind'], msg: expect.stringContaining('must be one of: slack'), type: 'enum' },
    ]);
    const { kind: _kind, ...untagged } = drone;
    expect((await validate('integrations.create', { body: untagged })).issues).toEqual([
      { loc: ['body', 'kind'], msg: 'field required', type: 'missing' },
    ]);
  });

  it("a zone's geofence takes the fields of its type: a circle has no coordinates", async () => {
    const { issues } = await validate('zones.create', {
      body: {
        environment_id: '0193a5f2-7c1e-7000-8000-000000000001',
        name: 'Quay',
        geofence: { type: 'Circle', center: [10.7, 59.9], coordinates: [] },
      },
    });
    expect(issues).toEqual([
      { loc: ['body', 'geofence', 'radius_m'], msg: 'field required for `type` `Circle`', type: 'missing' },
      { loc: ['body', 'geofence', 'coordinates'], msg: 'unknown field for `type` `Circle`', type: 'extra_forbidden' },
    ]);
  });

  it('a workflow step takes only the fields of its type', async () => {
    const { issues } = await validate('workflows.create', {
      body: {
        name: 'Page',
        trigger: { type: 'schedule', every_minutes: 60, event_types: ['sensor.alert'] },
        actions: [{ type: 'wait', minutes: 5, title: 'x' }, { type: 'update_incident' }],
      },
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        {
          loc: ['body', 'trigger', 'event_types'],
          msg: 'unknown field for `type` `schedule`',
          type: 'extra_forbidden',
        },
        { loc: ['body', 'actions', 0, 'title'], msg: 'unknown field for `type` `wait`', type: 'extra_forbidden' },
        // A change that changes nothing: one of its fields at least.
        {
          loc: ['body', 'actions', 1, 'severity'],
          msg: 'field required for `type` `update_incident`',
          type: 'missing',
        },
      ]),
    );
  });
});

describe('rules across query parameters', () => {
  const id = '0193a5f2-7c1e-7000-8000-000000000001';

  it.each([[{ event_id: id }], [{ incident_id: id }], [{ lat: '59.9', lon: '10.7' }]])(
    'correlation takes one anchor: %j',
    async (query) => {
      expect((await validate('correlation.get', { queryStringParameters: query })).issues).toBeNull();
    },
  );

  it('correlation without an anchor is a 422 naming each way to give one', async () => {
    const { issues } = await validate('correlation.get', { queryStringParameters: { radius_km: '2' } });
    expect(issues).toEqual(
      expect.arrayContaining([
        { loc: ['query', 'event_id'], msg: 'field required', type: 'missing' },
        { loc: ['query', 'incident_id'], msg: 'field required', type: 'missing' },
        { loc: ['query', 'lat'], msg: 'field required', type: 'missing' },
      ]),
    );
  });

  it('lat without lon is a 422 on lon', async () => {
    const { issues } = await validate('correlation.get', { queryStringParameters: { lat: '59.9' } });
    expect(issues).toEqual(
      expect.arrayContaining([
        { loc: ['query', 'lon'], msg: expect.stringContaining('field required'), type: 'missing' },
      ]),
    );
  });
});
