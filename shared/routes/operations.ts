/** How the platform is: the public live status, and the agents of a tenant. */
import {
  agentList,
  agentListQuery,
  agentPath,
  agentResponse,
  agentScopeQuery,
  agentUpdate,
  liveStatusResponse,
} from '../schemas/operations.js';
import { QUEUE_IDS } from '../vocabulary/queues.js';
import type { RouteDef } from './types.js';

export const liveStatusRoute = {
  id: 'liveStatus',
  method: 'GET',
  path: '/api/v1/live-status',
  handler: 'functions/platform/live-status.ts',
  access: 'public',
  tenant: 'none',
  tag: 'live-status',
  summary: 'Real-time platform status: dependencies, stream, bus and every worker',
  description:
    "Public and cheap: computed at most once every 10 s per function instance (and `Cache-Control: public, max-age=10`). Probes the table, the files bucket and the user pool (2 s each); reads every worker's heartbeats (one Query) and the depth of each queue. A worker is degraded when its last run failed within 15 minutes, when the oldest record of its last batch (in the last two minutes) had waited over a minute, when messages wait on its queue with no run of it for 30 s, when its dead-letter queue holds any, or when a scheduled worker missed three turns. Figures are the platform's; nothing names a tenant or an address. Always 200: read `status`. See docs/operations.md.",
  response: { status: 200, description: 'The status.', schema: liveStatusResponse, headers: ['Cache-Control'] },
  // A monitor polls it: counted per client IP like the other public routes.
  rateLimit: { name: 'live-status', perMinute: 120 },
  grants: {
    table: 'read',
    bucket: 'read',
    userPool: ['cognito-idp:DescribeUserPool'],
    queues: Object.fromEntries(QUEUE_IDS.map((q) => [q, 'depth' as const])),
  },
} as const satisfies RouteDef;

export const agentsListRoute = {
  id: 'agents.list',
  method: 'GET',
  path: '/api/v1/agents',
  handler: 'functions/agents/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'agents',
  summary: 'The nine agents doing automated work for the tenant, and how each is',
  description:
    "Each agent is a part of the product backed by real workers: its status is derived from their heartbeats, failures and queues (`degraded` with a reason), or `disabled` when the tenant switched it off. Runs, errors, backlog and dead letters are the platform's figures (every tenant's work together). `model` names the AI or speech model it uses. See docs/operations.md.",
  request: { query: agentListQuery },
  response: { status: 200, description: 'The nine agents.', schema: agentList },
  errors: [404],
  grants: { table: 'read', queues: Object.fromEntries(QUEUE_IDS.map((q) => [q, 'depth' as const])) },
} as const satisfies RouteDef;

export const agentsGetRoute = {
  id: 'agents.get',
  method: 'GET',
  path: '/api/v1/agents/{agent_id}',
  handler: 'functions/agents/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'agents',
  summary: 'One agent and how it is',
  request: { path: agentPath, query: agentScopeQuery },
  response: { status: 200, description: 'The agent.', schema: agentResponse },
  errors: [404],
  grants: { table: 'read', queues: Object.fromEntries(QUEUE_IDS.map((q) => [q, 'depth' as const])) },
} as const satisfies RouteDef;

export const agentsUpdateRoute = {
  id: 'agents.update',
  method: 'PATCH',
  path: '/api/v1/agents/{agent_id}',
  handler: 'functions/agents/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'agents',
  summary: 'Switch an agent off or on for the tenant, or set what it reads',
  description:
    '`enabled: false` stops the agent acting for this tenant (what that means per agent is in `when_disabled`), within 30 s on every worker; the webhook deliverer and the audit sealer cannot be switched off (409, saying why). `settings` sets the tenant configuration fields the agent reads (event-triage: `incident_threshold`; another is 422). Audited as `agent.disabled` / `agent.enabled` and `tenant_config.updated`.',
  request: { path: agentPath, query: agentScopeQuery, body: agentUpdate },
  response: { status: 200, description: 'The agent as it is now.', schema: agentResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', queues: Object.fromEntries(QUEUE_IDS.map((q) => [q, 'depth' as const])) },
} as const satisfies RouteDef;

export const operationsRoutes: readonly RouteDef[] = [
  liveStatusRoute,
  agentsListRoute,
  agentsGetRoute,
  agentsUpdateRoute,
];
