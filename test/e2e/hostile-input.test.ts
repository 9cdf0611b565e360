/**
 * Edges answered by the contract (issue 12): an oversized request line is a JSON 431 with
 * X-Request-Id (not Node's bare status line); valid JSON naming `__proto__`, `constructor` or
 * `prototype` is a 422 on that key (not "not valid JSON"); NUL characters and unpaired
 * surrogates are 422 wherever a create operation would have stored them; an event payload over
 * its documented 16 KB is 413 and nothing is stored. JSON nested deeper than 32 levels is 400 on
 * every route that takes a JSON body, anonymous ones included (issue 34, item 3), not a 500.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { baseUrl, call, registerTenant } from '../support/api.js';

describe('hostile input', () => {
  it('a 30 KB query string is a JSON 431 with X-Request-Id, as the operation documents', async () => {
    // Through `call`: the answer is checked against the operation in /openapi.json.
    const res = await call('GET', `/api/v1/events?type=${'x'.repeat(30_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((res.body as { detail: string }).detail).toContain('16 KB');
  });

  it('a body past 10 MB is a documented 413 on an operation that takes no body', async () => {
    const res = await call('DELETE', `/api/v1/assets/${randomUUID()}`, { rawBody: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
  });

  it('reserved keys are a 422 on their loc, at any depth', async () => {
    const org = await registerTenant('Reserved');
    for (const [raw, loc] of [
      ['{"type":"motion.detected","payload":{"__proto__":{"admin":true}}}', ['body', 'payload', '__proto__']],
      [
        '{"type":"motion.detected","payload":{"a":[{"constructor":{"prototype":1}}]}}',
        ['body', 'payload', 'a', 0, 'constructor'],
      ],
      ['{"__proto__":null,"type":"motion.detected"}', ['body', '__proto__']],
    ] as const) {
      const res = await call('POST', '/api/v1/events', {
        token: org.token,
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, raw).toBe(422);
      expect(res.body.detail, raw).toContainEqual(expect.objectContaining({ loc, type: 'reserved_key' }));
    }
    expect((await call('GET', '/api/v1/events', { token: org.token })).body).toEqual([]);
  });

  it('NUL characters and unpaired surrogates are 422 on every create that would store them', async () => {
    const org = await registerTenant('Text');
    const env = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Depot', type: 'port' } })
    ).body;
    const json = { 'content-type': 'application/json' };
    const creates: [string, (text: string) => string, (string | number)[]][] = [
      ['/api/v1/environments', (t) => `{"name":"${t}","type":"port"}`, ['body', 'name']],
      [
        '/api/v1/zones',
        (t) =>
          `{"environment_id":"${env.environment_id}","name":"${t}","geofence":{"type":"Circle","center":[10.75,59.91],"radius_m":50}}`,
        ['body', 'name'],
      ],
      [
        '/api/v1/sensors',
        (t) => `{"environment_id":"${env.environment_id}","name":"${t}","type":"radar"}`,
        ['body', 'name'],
      ],
      [
        '/api/v1/assets',
        (t) => `{"environment_id":"${env.environment_id}","name":"${t}","type":"vessel"}`,
        ['body', 'name'],
      ],
      ['/api/v1/events', (t) => `{"type":"motion.detected","description":"${t}"}`, ['body', 'description']],
      ['/api/v1/incidents', (t) => `{"title":"${t}","type":"intrusion"}`, ['body', 'title']],
      ['/api/v1/reports/manual', (t) => `{"title":"${t}"}`, ['body', 'title']],
      ['/api/v1/events', (t) => `{"type":"motion.detected","payload":{"${t}":1}}`, ['body', 'payload']],
    ];
    for (const [path, body, loc] of creates) {
      for (const [text, type] of [
        ['Gate\\u0000 4', 'string_nul'],
        ['Gate \\ud800', 'string_unicode'],
        ['Gate \\udfff 4', 'string_unicode'],
      ] as const) {
        const res = await call('POST', path, { token: org.token, rawBody: body(text), headers: json });
        expect(res.status, `${path} ${text}`).toBe(422);
        expect(res.body.detail[0].type, `${path} ${text}`).toBe(type);
        expect(res.body.detail[0].loc.slice(0, loc.length), `${path} ${text}`).toEqual(loc);
      }
    }
    // A surrogate pair (an emoji) is text.
    expect(
      (
        await call('POST', '/api/v1/events', {
          token: org.token,
          rawBody: '{"type":"motion.detected","description":"Gate \\ud83d\\udea8"}',
          headers: json,
        })
      ).status,
    ).toBe(201);
    // Query values too.
    const q = await fetch(`${baseUrl()}/api/v1/environments?tenant_id=${org.tenantId}&type=port%00`, {
      headers: { authorization: `Bearer ${org.token}` },
    });
    expect(q.status).toBe(422);
  });

  it('an event payload over 16 KB is 413, alone or in a batch, and nothing is stored', async () => {
    const org = await registerTenant('Payload');
    const big = { blob: 'x'.repeat(16 * 1024) };
    const single = await call('POST', '/api/v1/events', {
      token: org.token,
      body: { type: 'sensor.reading', payload: { ...big, value: 1, unit: 'C', metric: 't' } },
    });
    expect(single.status).toBe(413);
    expect(single.body.detail).toContain('payload');
    const batch = await call('POST', '/api/v1/events/batch', {
      token: org.token,
      body: { events: [{ type: 'motion.detected' }, { type: 'motion.detected', payload: big }] },
    });
    expect(batch.status).toBe(413);
    expect(batch.body.detail).toContain('events.1.payload');
    expect((await call('GET', '/api/v1/events', { token: org.token })).body).toEqual([]);
    // Just under the limit is taken.
    const fits = await call('POST', '/api/v1/events', {
      token: org.token,
      body: { type: 'motion.detected', payload: { blob: 'x'.repeat(16 * 1024 - 20) } },
    });
    expect(fits.status).toBe(201);
  });

  it('JSON nested deeper than 32 levels is 400 on anonymous and authenticated routes; 32 levels pass on', async () => {
    const json = { 'content-type': 'application/json' };
    const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const tooDeep = { detail: 'The body is JSON nested deeper than 32 levels' };
    // Anonymous: sign-in, registration, a public report; 60 KB of brackets, and 5,000 levels of objects.
    for (const path of ['/api/v1/portal/login', '/api/v1/portal/register', '/api/v1/incidents/public']) {
      for (const rawBody of [`{"email":${arrays(10_000)}}`, `{"email":${objects(5_000)}}`, arrays(33)]) {
        const res = await call('POST', path, { rawBody, headers: json });
        expect(res.status, `${path} ${rawBody.slice(0, 20)}`).toBe(400);
        expect(res.body, path).toEqual(tooDeep);
      }
    }
    // 32 levels, the body's object included, pass on to validation (a password is no array: 422).
    const deepest = await call('POST', '/api/v1/portal/login', {
      rawBody: `{"email":"a@example.com","password":${arrays(31)}}`,
      headers: json,
    });
    expect(deepest.status).toBe(422);
    expect(deepest.body.detail[0].loc).toEqual(['body', 'password']);

    // Authenticated, and nothing is stored: deep enough to overflow a walk, and just past what
    // DynamoDB stores (a payload 32 levels deep in a 33-level body).
    const org = await registerTenant('Deep');
    for (const [path, rawBody] of [
      ['/api/v1/events', `{"type":"motion.detected","payload":{"x":${arrays(10_000)}}}`],
      ['/api/v1/events/batch', `{"events":[{"type":"motion.detected","payload":${objects(5_000)}}]}`],
      ['/api/v1/events', `{"type":"motion.detected","payload":${objects(32)}}`],
    ] as const) {
      const res = await call('POST', path, { token: org.token, rawBody, headers: json });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual(tooDeep);
    }
    expect((await call('GET', '/api/v1/events', { token: org.token })).body).toEqual([]);
    // A payload 31 levels deep, in a 32-level body, is stored and read back as sent.
    const kept = await call('POST', '/api/v1/events', {
      token: org.token,
      rawBody: `{"type":"motion.detected","payload":${objects(31)}}`,
      headers: json,
    });
    expect(kept.status).toBe(201);
    expect(JSON.stringify(kept.body.payload)).toBe(objects(31));
    // Brackets in strings are text, however many.
    const texty = await call('POST', '/api/v1/events', {
      token: org.token,
      body: { type: 'motion.detected', description: '[{'.repeat(1_000) },
    });
    expect(texty.status).toBe(201);
  });
});
