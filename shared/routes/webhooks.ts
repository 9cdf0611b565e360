/** Webhook subscriptions and what they may subscribe to. */
import { webhookEventTypes } from '../schemas/webhooks.js';
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

export const webhooksRoutes: readonly RouteDef[] = [webhooksEventsRoute];
