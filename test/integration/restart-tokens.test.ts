/**
 * `npm start` stopped and started again on the same data directory: a bearer token issued before
 * still works after, though the local identity provider listens on another port now.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { call, confirmRegistration } from '../support/api.js';
import { npmStart, type NpmStart } from '../support/npm-start.js';

const runs: NpmStart[] = [];
afterAll(async () => {
  await Promise.all(runs.map((r) => r.stop()));
});

describe('local tokens across a restart of npm start', () => {
  it('a token from before the restart reads the same caller after it; a token signed for another issuer does not', async () => {
    const first = await npmStart();
    runs.push(first);
    const email = `restart-${Date.now()}@example.com`;
    const password = 'Restart-pass-1';
    const server = first.url;
    expect(
      (
        await call('POST', '/api/v1/portal/register', {
          server,
          body: { email, password, organization_name: 'Restart Co' },
        })
      ).status,
    ).toBe(201);
    await confirmRegistration(email, first);
    const login = (await call('POST', '/api/v1/portal/login', { server, body: { email, password } })).body;
    const before = await call('GET', '/api/v1/portal/me', { server, token: login.access_token });
    expect(before.status).toBe(200);

    await first.stop({ keepData: true });
    const second = await npmStart({}, first.dataDir);
    runs.push(second);
    const after = await call('GET', '/api/v1/portal/me', { server: second.url, token: login.access_token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ user_id: login.user_id, tenant: { tenant_id: login.tenant_id } });

    // Still checked, not merely accepted: a token of a fresh instance (another pool) is refused here.
    const other = await npmStart();
    runs.push(other);
    await call('POST', '/api/v1/portal/register', {
      server: other.url,
      body: { email, password, organization_name: 'Elsewhere' },
    });
    await confirmRegistration(email, other);
    const foreign = (await call('POST', '/api/v1/portal/login', { server: other.url, body: { email, password } })).body
      .access_token;
    expect((await call('GET', '/api/v1/portal/me', { server: second.url, token: foreign })).status).toBe(401);
  }, 240_000);
});
