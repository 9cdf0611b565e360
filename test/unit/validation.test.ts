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
