/**
 * The correlation id a request answers when the client sends none it can take
 * (docs/observability.md, "Correlation id"). One id followed from a request through the outbox,
 * the bus and the queues to the webhook attempt is the walk of test/e2e/metrics.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { call, registerTenant } from '../support/api.js';

describe('logs', () => {
  it('answer the request id as correlation id when the client sends none, or one that is not a plain token', async () => {
    const org = await registerTenant('LogsOwn');
    const sent: Record<string, string>[] = [
      {},
      { 'x-correlation-id': 'has spaces; and "quotes"' },
      { 'x-correlation-id': 'x'.repeat(200) },
    ];
    for (const headers of sent) {
      const res = await call('GET', '/api/v1/incidents', { token: org.token, headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-correlation-id')).toBe(res.headers.get('x-request-id'));
    }
  });
});
