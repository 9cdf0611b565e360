/**
 * CloudFormation's 500-resource limit with the spec's full route count in mind (~120 routes):
 * a synthetic table of 150 routes over 20 tags must fit, with the parent well under the limit,
 * and an oversized tag must spill into further nested stacks.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ROUTES_PER_STACK } from '../../lib/route-plan.js';
import { QUEUES } from '../../shared/workers.js';
import { methods, resourceCount, resourcesOfType, synth, syntheticRoutes } from './synth.js';

const ROUTE_COUNT = 150;
const TAG_COUNT = 20;

describe('150 routes over 20 tags', () => {
  const routes = syntheticRoutes(ROUTE_COUNT, TAG_COUNT);
  const s = synth({ routes });
  const nestedTotal = [...s.nested.values()].reduce((n, t) => n + resourceCount(t), 0);
  const distinctPaths = new Set(routes.map((r) => r.path)).size;

  it('one nested stack per tag, one function and one method per route', () => {
    expect(s.nested.size).toBe(TAG_COUNT);
    const functions = [...s.nested.values()].reduce(
      (n, t) => n + resourcesOfType(t, 'AWS::Lambda::Function').length,
      0,
    );
    expect(functions).toBe(ROUTE_COUNT);
    expect(methods(s)).toHaveLength(ROUTE_COUNT);
  });

  it('a route costs 6 resources in its nested stack: function, role, policy, log group, method, permission', () => {
    expect(nestedTotal / ROUTE_COUNT).toBe(6);
  });

  it('the parent grows only by API path parts, one stack per tag and the route groups', () => {
    // Parent = fixed part + one AWS::CloudFormation::Stack per tag + one AWS::ApiGateway::Resource
    // per path part. With ~120 routes the spec has fewer path parts than routes.
    const pathParts = resourcesOfType(s.parent, 'AWS::ApiGateway::Resource').length;
    // Each queue of the service is four more (it, its dead-letter queue, their policies), and a
    // fifth when a rule on the bus feeds it: the rest is the table, bucket, pool, bus and API, and
    // the keys (lib/secrets.ts: the secrets key and the audit key that seals audit entries, one
    // each for the whole stage, not one per route), and the TenantData role with its policy
    // (lib/tenant-data.ts: one for the stage, assumed by every route on tenant data).
    const queueParts = QUEUES.reduce((n, q) => n + 4 + ('busRule' in q ? 1 : 0), 0);
    // The dashboard, the alarms and their topic (lib/observability.ts): 4 metric filters and an
    // alarm a route group, an alarm a feed, and about a dozen others, whatever the route count.
    const observability = Object.keys(s.parent.toJSON().Resources as object).filter((id) =>
      /^(Observability|Alarms)/.test(id),
    ).length;
    expect(observability).toBeLessThan(80);
    const fixed = resourceCount(s.parent) - TAG_COUNT - pathParts - observability;
    expect(fixed - queueParts).toBeLessThan(28);
    expect(pathParts).toBeLessThanOrEqual(distinctPaths + TAG_COUNT + 2);
    expect(resourceCount(s.parent) - observability).toBeLessThan(250);
  });

  it('every stack stays under 500 resources', () => {
    expect(resourceCount(s.parent)).toBeLessThan(500);
    for (const [id, template] of s.nested) expect(resourceCount(template), id).toBeLessThan(500);
  });
});

describe('one oversized tag', () => {
  it(`spills over ${MAX_ROUTES_PER_STACK} routes into further nested stacks, each under 500`, () => {
    const routes = syntheticRoutes(130, 1);
    const s = synth({ routes });
    expect([...s.nested.keys()]).toEqual(['RoutesGroup0', 'RoutesGroup0Part2', 'RoutesGroup0Part3']);
    for (const [id, template] of s.nested) expect(resourceCount(template), id).toBeLessThan(500);
    expect(methods(s)).toHaveLength(130);
  });
});

describe('a streaming route', () => {
  const [plain] = syntheticRoutes(1, 1);
  const streaming = { ...plain!, id: 'synthetic.stream', path: '/api/v1/synthetic/stream', streaming: true };
  const s = synth({ routes: [plain!, streaming] });
  const byPath = new Map(methods(s).map((m) => [m.path, m]));

  it('is integrated with response streaming and a 15 minute timeout', () => {
    const integration = byPath.get('/api/v1/synthetic/stream')!.integration;
    expect(integration.ResponseTransferMode).toBe('STREAM');
    expect(integration.TimeoutInMillis).toBe(15 * 60 * 1000);
    expect(JSON.stringify(integration.Uri)).toContain('/response-streaming-invocations');
    const fnId = byPath.get('/api/v1/synthetic/stream')!.functionId;
    const fn = s.nested.get('RoutesGroup0')!.toJSON().Resources[fnId];
    expect(fn.Properties.Timeout).toBe(900);
  });

  it('leaves buffered routes as they are', () => {
    const integration = byPath.get(plain!.path)!.integration;
    expect(integration.ResponseTransferMode).toBeUndefined();
    expect(integration.TimeoutInMillis).toBeUndefined();
    expect(JSON.stringify(integration.Uri)).toContain('/invocations');
  });
});
