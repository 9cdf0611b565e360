/** Webhooks: what a subscription may choose, and how each delivery is described. */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';

describe('webhooks.events', () => {
  it('lists, without a credential, every bus message a subscription may choose, each described in the OpenAPI webhooks', async () => {
    const res = await call('GET', '/api/v1/webhooks/events');
    expect(res.status).toBe(200);
    const types = res.body as string[];
    expect(types).toEqual(expect.arrayContaining(['motion.detected', 'intrusion.detected', 'incident.created', 'incident.acknowledged', 'incident.escalated', 'incident.sla_breached', 'incident.resolved']));
    // The notification request carries no link and is the sender's own business: not offered.
    expect(types).not.toContain('incident.notification');
    expect(new Set(types).size).toBe(types.length);

    const doc = (await call('GET', '/openapi.json')).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual([...types].sort());
    const created = doc.webhooks['incident.created'].post;
    expect(created.parameters.map((p: { name: string }) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const body = created.requestBody.content['application/json'].schema;
    expect(body).toMatchObject({ required: ['type', 'timestamp', 'data'], properties: { type: { const: 'incident.created' }, data: { $ref: '#/components/schemas/WebhookIncidentData' } } });
    expect(doc.components.schemas.WebhookIncidentData.properties.incident_id).toBeDefined();
    expect(doc.webhooks['motion.detected'].post.requestBody.content['application/json'].schema.properties.data.$ref).toBe('#/components/schemas/WebhookEventData');
  });
});
