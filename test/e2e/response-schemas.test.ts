/**
 * The checker every end-to-end call goes through (test/support/api.ts): answers are held to the
 * response schemas of /openapi.json. Shown here to catch what it must catch, so a suite that
 * passes means something.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, call, registerTenant } from '../support/api.js';
import { responseProblems } from '../support/response-schemas.js';

describe('response schema checks', () => {
  it('accepts what the service answers, and names what breaks the document', async () => {
    const org = await registerTenant('Schemas');
    const res = await call('POST', '/api/v1/events', { token: org.token, body: { type: 'motion.detected' } });
    expect(res.status).toBe(201);
    // No severity given: null, which the document allows (a nullable enum lists null).
    expect(res.body.severity).toBeNull();
    const event = res.body;
    const json = 'application/json';
    expect(await responseProblems(baseUrl(), 'GET', `/api/v1/events/${event.event_id}`, 200, json, event)).toEqual([]);

    const bad = await responseProblems(baseUrl(), 'GET', `/api/v1/events/${event.event_id}`, 200, json, {
      ...event,
      severity: 'bogus',
    });
    expect(bad.join('\n')).toContain('/severity');
    const missing = await responseProblems(baseUrl(), 'GET', '/api/v1/events', 200, json, [
      { event_id: event.event_id },
    ]);
    expect(missing.join('\n')).toContain('required');
    const undocumented = await responseProblems(baseUrl(), 'GET', `/api/v1/events/${event.event_id}`, 418, json, {
      detail: 'teapot',
    });
    expect(undocumented.join('\n')).toContain('does not document');
    // A literal path with no GET (the server's own 405) is no operation's answer.
    expect(
      await responseProblems(baseUrl(), 'GET', '/api/v1/events/batch', 405, json, { detail: 'Method Not Allowed' }),
    ).toEqual([]);
  });
});
