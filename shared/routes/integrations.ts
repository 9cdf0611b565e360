/** Integrations with the services people are told through, and their connection tests. */
import {
  integrationCreate,
  integrationCreated,
  integrationListQuery,
  integrationPath,
  integrationResponse,
  integrationScopeQuery,
  integrationUpdate,
  testConnectionResult,
} from '../schemas/integrations.js';
import type { RouteDef } from './types.js';

const NOT_YET =
  'A `feed` integration is a connector (`GET /api/v1/connectors`): it tells nobody, and its schedule follows its settings. `POST .../test` sends each other kind its real test message.';

export const integrationsCreateRoute = {
  id: 'integrations.create',
  method: 'POST',
  path: '/api/v1/integrations',
  handler: 'functions/integrations/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  plan: { feature: 'integrations' },
  tag: 'integrations',
  summary: 'Add an integration (Slack, Microsoft Teams, PagerDuty, email, or a signed HTTP endpoint)',
  description: `Its credentials are write-only: kept sealed, never returned. Addresses are checked now (422 on the config field) and at every call. At most 50 per tenant (409 beyond). ${NOT_YET}`,
  request: { body: integrationCreate },
  response: {
    status: 201,
    description: 'The integration (for `http` and `drone`, with its signing secret, shown this once).',
    schema: integrationCreated,
  },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', secrets: 'seal', schedules: true },
} as const satisfies RouteDef;

export const integrationsListRoute = {
  id: 'integrations.list',
  method: 'GET',
  path: '/api/v1/integrations',
  handler: 'functions/integrations/list.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'integrations',
  summary: "A tenant's integrations, oldest first, credentials masked",
  request: { query: integrationListQuery },
  response: {
    status: 200,
    description: 'A page of integrations.',
    schema: { type: 'array', items: integrationResponse },
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const integrationsGetRoute = {
  id: 'integrations.get',
  method: 'GET',
  path: '/api/v1/integrations/{integration_id}',
  handler: 'functions/integrations/get.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'integrations',
  summary: 'An integration, credentials masked',
  request: { path: integrationPath, query: integrationScopeQuery },
  response: { status: 200, description: 'The integration.', schema: integrationResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const integrationsUpdateRoute = {
  id: 'integrations.update',
  method: 'PATCH',
  path: '/api/v1/integrations/{integration_id}',
  handler: 'functions/integrations/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  plan: { feature: 'integrations' },
  tag: 'integrations',
  summary: 'Rename, switch on or off, or replace the configuration of an integration',
  request: { path: integrationPath, query: integrationScopeQuery, body: integrationUpdate },
  response: { status: 200, description: 'The integration as it is now.', schema: integrationResponse },
  errors: [404, 409],
  // Opens: a drone integration's new address keeps the signing secret it has (docs/drones.md).
  grants: { audit: 'seal', table: 'write', secrets: 'both', schedules: true },
} as const satisfies RouteDef;

export const integrationsDeleteRoute = {
  id: 'integrations.delete',
  method: 'DELETE',
  path: '/api/v1/integrations/{integration_id}',
  handler: 'functions/integrations/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'integrations',
  summary: 'Delete an integration',
  request: { path: integrationPath, query: integrationScopeQuery },
  response: { status: 204, description: 'Deleted.' },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', schedules: true },
} as const satisfies RouteDef;

export const integrationsTestRoute = {
  id: 'integrations.test',
  method: 'POST',
  path: '/api/v1/integrations/{integration_id}/test',
  handler: 'functions/integrations/send-test.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  plan: { feature: 'integrations' },
  tag: 'integrations',
  summary: "Probe the configured endpoint with the kind's own test message",
  description:
    'Slack gets `{text}`, Teams a MessageCard, PagerDuty an Events API v2 `trigger` of severity info that is resolved again at once, email a test message, an `http` endpoint a `integration.test` delivery signed per Standard Webhooks. 200 whatever the endpoint said: `reachable` and `status_code` tell (email has no status code: reachable means the mail service took it).',
  request: { path: integrationPath, query: integrationScopeQuery },
  response: { status: 200, description: 'TestConnectionResult.', schema: testConnectionResult },
  errors: [404],
  // PagerDuty's test is two calls: 15 s for the trigger, 10 s for the resolve, within API Gateway's 29 s.
  timeoutSeconds: 29,
  grants: { table: 'read', secrets: 'open', email: true },
} as const satisfies RouteDef;

export const integrationsRoutes: readonly RouteDef[] = [
  integrationsCreateRoute,
  integrationsListRoute,
  integrationsGetRoute,
  integrationsUpdateRoute,
  integrationsDeleteRoute,
  integrationsTestRoute,
];
