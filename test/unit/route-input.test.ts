/**
 * A route's function receives its input typed from the route's own schemas: these checks run in
 * `tsc --noEmit` (the first half of `npm test`); each `@ts-expect-error` fails the type check the
 * day the code under it compiles, for instance if the input falls back to `any`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { httpHandler, type HttpRequest } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import {
  environmentsGetRoute,
  environmentsListRoute,
  environmentsUpdateRoute,
} from '../../shared/routes/environments.js';
import { eventsCreateRoute } from '../../shared/routes/events.js';
import { healthRoute } from '../../shared/routes/platform.js';
import { zonesListRoute } from '../../shared/routes/zones.js';

describe('typed route input', () => {
  it('types path, query, headers and body from the schemas, with defaults filled in', () => {
    type List = HttpRequest<typeof environmentsListRoute>;
    expectTypeOf<List['query']['limit']>().toEqualTypeOf<number>();
    expectTypeOf<List['query']['tenant_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<HttpRequest<typeof zonesListRoute>['query']['environment_id']>().toEqualTypeOf<string>();
    expectTypeOf<List['query']['type']>().toEqualTypeOf<
      | 'site'
      | 'building'
      | 'campus'
      | 'port'
      | 'pipeline'
      | 'vessel'
      | 'data_center'
      | 'substation'
      | 'warehouse'
      | 'other'
      | undefined
    >();
    expectTypeOf<HttpRequest<typeof environmentsGetRoute>['params']>().toEqualTypeOf<{ environment_id: string }>();
    expectTypeOf<HttpRequest<typeof eventsCreateRoute>['headers']['idempotency-key']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<HttpRequest<typeof healthRoute>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<HttpRequest<typeof environmentsUpdateRoute>['body']['location']>().toEqualTypeOf<
      { lat: number; lon: number } | null | undefined
    >();
  });

  it('a route function that names a field its schemas do not have does not compile', () => {
    // Built, never invoked: what matters is that each marked line is a type error.
    const bind = () => [
      // @ts-expect-error the path parameter is environment_id
      httpHandler(environmentsGetRoute, async (req) => json(req.params.environmentId)),
      // @ts-expect-error the list takes no `limt`
      httpHandler(environmentsListRoute, async (req) => json(req.query.limt)),
      // @ts-expect-error an event's type is `type`, not `event_type`
      httpHandler(eventsCreateRoute, async (req) => json(req.body.event_type)),
    ];
    expect(typeof bind).toBe('function');
  });
});
