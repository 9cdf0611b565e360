/**
 * The isolation suite's own machinery, on made-up routes: a route it cannot fill fails loudly,
 * references are found wherever they are, and the bodies it generates pass the route's schemas.
 * (No server needed: planning is pure.)
 */
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../shared/routes/types.js';
import { uuid } from '../../shared/schemas/common.js';
import { planAll, planRoute, materialize, PlanError } from './plan.js';
import { sampleValue, type SampleContext } from './schema-sample.js';

function route(over: Partial<RouteDef> & Pick<RouteDef, 'id' | 'method' | 'path'>): RouteDef {
  return {
    handler: 'functions/none.ts',
    access: 'VIEWER',
    tenant: 'credential',
    tag: 'test',
    summary: 'made up',
    response: { status: 200, description: 'ok' },
    grants: {},
    ...over,
  };
}

const ids = {
  A: { tenant_id: 'a-tenant', user_id: 'a-user', key_id: 'a-key', asset: 'swagger-ui.css' },
  B: { tenant_id: 'b-tenant', user_id: 'b-user', key_id: 'b-key', asset: 'swagger-ui.css' },
};

describe('isolation: the generator on made-up routes', () => {
  it('refuses a path parameter without a fixture, naming the route and the parameter', () => {
    const plans = planAll([
      route({
        id: 'made.up.widget',
        method: 'GET',
        path: '/api/v1/widgets/{widget_id}/zones',
        request: {
          path: {
            type: 'object',
            properties: { widget_id: uuid },
            required: ['widget_id'],
            additionalProperties: false,
          },
        },
      }),
    ]);
    expect(plans.routes.size).toBe(0);
    expect(plans.errors.get('made.up.widget')).toMatch(/made\.up\.widget .*\{widget_id\}.*FIXTURES/);
  });

  it('refuses a reference without a fixture, required or not, in a body or a query', () => {
    const body = route({
      id: 'made.up.body',
      method: 'POST',
      path: '/api/v1/things',
      request: {
        body: {
          type: 'object',
          properties: { gizmo_id: uuid, name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    });
    const query = route({
      id: 'made.up.query',
      method: 'GET',
      path: '/api/v1/things',
      request: {
        query: {
          type: 'object',
          properties: { gadget_ids: { type: 'array', items: uuid } },
          additionalProperties: false,
        },
      },
    });
    expect(() => planRoute(body)).toThrow(PlanError);
    expect(() => planRoute(body)).toThrow(/"gizmo_id" looks like a reference/);
    expect(() => planRoute(query)).toThrow(/"gadget_ids" looks like a reference.*"gadget_id"/);
  });

  it("finds references in path, query and nested body, and tries A's in each", () => {
    const plan = planRoute(
      route({
        id: 'made.up.nested',
        method: 'POST',
        path: '/api/v1/keys/{key_id}/grants',
        access: 'TENANT_ADMIN',
        request: {
          path: { type: 'object', properties: { key_id: uuid }, required: ['key_id'], additionalProperties: false },
          query: { type: 'object', properties: { tenant_id: uuid }, additionalProperties: false },
          body: {
            type: 'object',
            properties: {
              label: { type: 'string', minLength: 3, maxLength: 5 },
              target: { type: 'object', properties: { user_id: uuid }, additionalProperties: false },
              user_ids: { type: 'array', items: uuid },
            },
            required: ['label'],
            additionalProperties: false,
          },
        },
      }),
    );
    expect(plan.ownedSlots.map((s) => `${s.place}:${s.name}`).sort()).toEqual([
      'body:user_id',
      'body:user_ids',
      'path:key_id',
      'query:tenant_id',
    ]);
    const byLabel = Object.fromEntries(
      plan.crossTenant.map((v) => [v.label, materialize(plan, v, ids, () => 'unknown')]),
    );
    expect(byLabel['path key_id=A']).toMatchObject({ path: '/api/v1/keys/a-key/grants', query: {} });
    expect(byLabel['query tenant_id=A']).toMatchObject({
      path: '/api/v1/keys/b-key/grants',
      query: { tenant_id: 'a-tenant' },
    });
    expect(byLabel['body user_id=A']?.body).toMatchObject({ target: { user_id: 'a-user' } });
    expect(byLabel['body user_ids=A']?.body).toMatchObject({ user_ids: ['a-user'] });
    expect(byLabel['body user_id=A, query tenant_id=B']).toMatchObject({ query: { tenant_id: 'b-tenant' } });
    expect(Object.keys(byLabel)).toContain('path key_id=A, query tenant_id=A, body user_id=A, body user_ids=A');
    const label = (byLabel['path key_id=A']?.body as { label: string }).label;
    expect(label.length).toBeGreaterThanOrEqual(3);
    expect(label.length).toBeLessThanOrEqual(5);
  });
});

describe('isolation: the sample generator', () => {
  const noRefs: SampleContext = { isRef: () => false, ref: () => undefined };

  it('makes minimal valid values: required fields, enums, formats, bounds, minProperties', () => {
    const value = sampleValue(
      {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email' },
          when: { type: 'string', format: 'date-time' },
          level: { type: 'string', enum: ['low', 'high'] },
          count: { type: 'integer', minimum: 30, maximum: 40 },
          hhmm: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2, uniqueItems: true },
          optional: { type: 'string' },
        },
        required: ['email', 'when', 'level', 'count', 'hhmm', 'tags'],
      },
      noRefs,
      'body',
    ) as Record<string, unknown>;
    expect(value).toEqual({
      email: expect.stringMatching(/^isol-\w+@isolation\.example$/),
      when: expect.any(String),
      level: 'low',
      count: 30,
      hhmm: '00:00',
      tags: ['a', 'b'],
    });
    expect(Date.parse(value.when as string)).toBeGreaterThan(Date.now());
    expect(
      sampleValue(
        { type: 'object', properties: { a: { type: ['string', 'null'] }, b: { type: 'boolean' } }, minProperties: 1 },
        noRefs,
        'b',
      ),
    ).toEqual({
      a: expect.any(String),
    });
  });

  it('makes a new email each time, so creates never collide', () => {
    const schema = { type: 'string', format: 'email' } as const;
    expect(sampleValue(schema, noRefs, 'x')).not.toBe(sampleValue(schema, noRefs, 'x'));
  });

  it('refuses what it cannot make, saying where', () => {
    expect(() => sampleValue({ type: 'string', pattern: '^Q{9}$' }, noRefs, 'body.code')).toThrow(
      /body\.code: no sample matches the pattern/,
    );
    expect(() => sampleValue({ type: 'string', format: 'binary' }, noRefs, 'body.file')).toThrow(
      /body\.file: string format binary/,
    );
  });
});
