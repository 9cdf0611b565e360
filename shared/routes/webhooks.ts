/** Webhook subscriptions and what they may subscribe to. */
import { pagingQuery } from '../schemas/common.js';
import {
  webhookCreate,
  webhookEventTypes,
  webhookList,
  webhookPath,
  webhookResponse,
  webhookTestResult,
  webhookUpdate,
  webhookWithSecret,
  deliveryList,
  deliveryListQuery,
  deliveryPath,
  deliveryResponse,
  replayResult,
  replaySince,
} from '../schemas/webhooks.js';
import type { RouteDef } from './types.js';

export const webhooksEventsRoute = {
  id: 'webhooks.events',
  method: 'GET',
  path: '/api/v1/webhooks/events',
  handler: 'functions/webhooks/events.ts',
  access: 'public',
  tenant: 'none',
  tag: 'webhooks',
  summary: 'The event types a webhook subscription may choose',
  description:
    "Each type's delivery, its headers and the schema of its `data`, is described in this document's `webhooks` section. The types are the messages of the service's event bus: stored events by their type, and incident changes.",
  response: { status: 200, description: 'Every subscribable type.', schema: webhookEventTypes },
  grants: {},
} as const satisfies RouteDef;

/** How deliveries are made, for the create route's description. */
const DELIVERIES =
  'Each message of a chosen type is POSTed as `{type, timestamp, data}` with the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), within seconds; anything but a 2xx is tried again at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (with jitter), a 410 turns the subscription off, and 5 days of failures too. `GET /api/v1/webhooks/{webhook_id}/deliveries` shows every attempt.';

export const webhooksCreateRoute = {
  id: 'webhooks.create',
  method: 'POST',
  path: '/api/v1/webhooks',
  handler: 'functions/webhooks/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  plan: { feature: 'webhooks' },
  tag: 'webhooks',
  summary: 'Subscribe a receiver to event types; its signing secret is shown once',
  description: `The URL is checked now (422 on \`body.url\` for an address we may not call) and again at every call. At most 50 subscriptions per tenant (409 beyond). ${DELIVERIES}`,
  request: { body: webhookCreate },
  response: {
    status: 201,
    description: 'The subscription and its secret, shown this once.',
    schema: webhookWithSecret,
  },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', secrets: 'seal' },
} as const satisfies RouteDef;

export const webhooksListRoute = {
  id: 'webhooks.list',
  method: 'GET',
  path: '/api/v1/webhooks',
  handler: 'functions/webhooks/list.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  tag: 'webhooks',
  summary: "Your tenant's webhook subscriptions, oldest first (never their secrets)",
  request: { query: pagingQuery },
  response: { status: 200, description: 'WebhookSubscriptionListResponse.', schema: webhookList },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const webhooksGetRoute = {
  id: 'webhooks.get',
  method: 'GET',
  path: '/api/v1/webhooks/{webhook_id}',
  handler: 'functions/webhooks/get.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  tag: 'webhooks',
  summary: 'A webhook subscription (never its secret)',
  request: { path: webhookPath },
  response: { status: 200, description: 'The subscription.', schema: webhookResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const webhooksUpdateRoute = {
  id: 'webhooks.update',
  method: 'PATCH',
  path: '/api/v1/webhooks/{webhook_id}',
  handler: 'functions/webhooks/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  plan: { feature: 'webhooks' },
  tag: 'webhooks',
  summary: 'Change some fields of a webhook subscription; a new URL is checked as at creation',
  request: { path: webhookPath, body: webhookUpdate },
  response: { status: 200, description: 'The subscription as it is now.', schema: webhookResponse },
  errors: [404, 409],
  // Seals a new URL's credentials; opens the kept ones when the URL is sent back as shown.
  grants: { audit: 'seal', table: 'write', secrets: 'both' },
} as const satisfies RouteDef;

export const webhooksDeleteRoute = {
  id: 'webhooks.delete',
  method: 'DELETE',
  path: '/api/v1/webhooks/{webhook_id}',
  handler: 'functions/webhooks/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  tag: 'webhooks',
  summary: 'Delete a webhook subscription',
  request: { path: webhookPath },
  response: { status: 204, description: 'Deleted.' },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const webhooksRotateSecretRoute = {
  id: 'webhooks.rotateSecret',
  method: 'POST',
  path: '/api/v1/webhooks/{webhook_id}/rotate-secret',
  handler: 'functions/webhooks/rotate-secret.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  plan: { feature: 'webhooks' },
  tag: 'webhooks',
  summary: 'A new signing secret, shown once; the old one keeps signing beside it for 24 hours',
  description:
    'Meanwhile every delivery carries two signatures (space-separated in `webhook-signature`), so receivers can switch secrets without losing one.',
  request: { path: webhookPath },
  response: {
    status: 200,
    description: 'The subscription and its new secret, shown this once.',
    schema: webhookWithSecret,
  },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', secrets: 'seal' },
} as const satisfies RouteDef;

export const webhooksTestRoute = {
  id: 'webhooks.test',
  method: 'POST',
  path: '/api/v1/webhooks/{webhook_id}/test',
  handler: 'functions/webhooks/send-test.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  plan: { feature: 'webhooks' },
  tag: 'webhooks',
  summary: "Send a signed `webhook.test` ping now and report the receiver's answer",
  description:
    'Signed like every delivery (Standard Webhooks headers); the receiver has 15 s and no redirect is followed. The answer is 200 whatever the receiver said: `delivered` and `status_code` tell.',
  request: { path: webhookPath },
  response: { status: 200, description: 'What the receiver answered.', schema: webhookTestResult },
  errors: [404],
  timeoutSeconds: 20,
  grants: { table: 'read', secrets: 'open' },
} as const satisfies RouteDef;

export const webhooksDeliveriesRoute = {
  id: 'webhooks.deliveries',
  method: 'GET',
  path: '/api/v1/webhooks/{webhook_id}/deliveries',
  handler: 'functions/webhooks/deliveries.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  tag: 'webhooks',
  summary: "A subscription's deliveries, newest first, with every attempt",
  description:
    'Each delivery: its status, every attempt (time, status code, latency, error), when the next attempt is due, and the payload sent. Kept 30 days. Filter by `status` to see what failed.',
  request: { path: webhookPath, query: deliveryListQuery },
  response: { status: 200, description: 'A page of deliveries.', schema: deliveryList },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const webhooksReplayDeliveryRoute = {
  id: 'webhooks.replayDelivery',
  method: 'POST',
  path: '/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay',
  handler: 'functions/webhooks/replay-delivery.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  plan: { feature: 'webhooks' },
  tag: 'webhooks',
  summary: 'Send a delivery again, with the same `webhook-id` and payload',
  description:
    'One more attempt, made within seconds, outside the retry schedule (a replay that fails is not retried: its `failure_reason` is `replay_failed`). 409 while the subscription is turned off or the delivery is still pending.',
  request: { path: deliveryPath },
  response: { status: 202, description: 'The delivery, pending until the attempt is made.', schema: deliveryResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', queues: { 'webhook-deliveries': 'send' } },
} as const satisfies RouteDef;

export const webhooksReplayFailedRoute = {
  id: 'webhooks.replayFailed',
  method: 'POST',
  path: '/api/v1/webhooks/{webhook_id}/deliveries/replay',
  handler: 'functions/webhooks/replay-failed.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  plan: { feature: 'webhooks' },
  tag: 'webhooks',
  summary: 'Send again every failed delivery since a time',
  description:
    'For a receiver that was down: each failed delivery whose message is from `since` on gets one more attempt with its own `webhook-id`, 1,000 a call (`has_more` says to call again). 409 while the subscription is turned off.',
  request: { path: webhookPath, body: replaySince },
  response: { status: 202, description: 'What was queued again.', schema: replayResult },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', queues: { 'webhook-deliveries': 'send' } },
} as const satisfies RouteDef;

export const webhooksRoutes: readonly RouteDef[] = [
  webhooksEventsRoute,
  webhooksCreateRoute,
  webhooksListRoute,
  webhooksGetRoute,
  webhooksUpdateRoute,
  webhooksDeleteRoute,
  webhooksRotateSecretRoute,
  webhooksTestRoute,
  webhooksDeliveriesRoute,
  webhooksReplayDeliveryRoute,
  webhooksReplayFailedRoute,
];
