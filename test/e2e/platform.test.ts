/** Health, login, the API description and the documentation page, over real HTTP. */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ADMIN, baseUrl, call } from '../support/api.js';

describe('health', () => {
  it('answers 200 once every dependency answers', async () => {
    const res = await call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', checks: { database: 'ok', storage: 'ok', identity: 'ok' } });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('says which handlers answer: the sources, or the bundles cdk synth builds (npm run test:bundles)', async () => {
    const res = await call('GET', '/health');
    expect(res.body.handlers).toBe(process.env.GATEHOUSE_HANDLERS === 'bundles' ? 'bundles' : 'sources');
  });
});

describe('portal.login', () => {
  it('the bootstrap administrator logs in and gets a bearer token', async () => {
    const res = await call('POST', '/api/v1/portal/login', { body: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: expect.any(Number) });
    expect(res.body.access_token.split('.')).toHaveLength(3);
    const tenants = await call('GET', '/api/v1/tenants', { token: res.body.access_token });
    expect(tenants.status).toBe(200);
  });

  it('a wrong password and an unknown email get the same 401', async () => {
    const wrong = await call('POST', '/api/v1/portal/login', {
      body: { email: ADMIN.email, password: 'wrong-Password-1' },
    });
    const unknown = await call('POST', '/api/v1/portal/login', {
      body: { email: 'nobody@nowhere.example', password: 'wrong-Password-1' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.text).not.toMatch(/exist|unknown|not found/i);
  });

  it('validates the body', async () => {
    const res = await call('POST', '/api/v1/portal/login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'email'] }),
        expect.objectContaining({ loc: ['body', 'password'], type: 'missing' }),
      ]),
    );
  });
});

describe('openapi', () => {
  it('serves an OpenAPI 3.1 document covering the tenant routes', async () => {
    const res = await call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/tenants', '/api/v1/tenants/{tenant_id}/config']),
    );
  });
});

describe('docs', () => {
  it('serves a page that loads its assets from this server, not a CDN', async () => {
    const res = await call('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('swagger-ui-bundle.js');
    expect(res.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"']*\.(js|css)/);
  });
});

describe('docs', () => {
  /** The raw answer, as a client that names its own Accept-Encoding gets it. */
  const raw = (path: string, acceptEncoding?: string) =>
    new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      const req = request(new URL(path, baseUrl()), {
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
      });
      req.on('error', reject).end();
    });

  it('the document and the documentation travel gzip-compressed to a client that accepts it, plain to others', async () => {
    for (const path of ['/openapi.json', '/docs/swagger-ui-bundle.js']) {
      const plain = await raw(path);
      expect(plain.encoding).toBeUndefined();
      const zipped = await raw(path, 'br;q=1, gzip;q=0.8');
      expect(zipped.encoding).toBe('gzip');
      expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
      expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 3);
      expect((await raw(path, 'gzip;q=0')).encoding).toBeUndefined();
    }
    // A short answer is not worth it.
    expect((await raw('/health', 'gzip')).encoding).toBeUndefined();
  });
});

describe('docs.asset', () => {
  it('serves the script and the style, and 404 for anything else', async () => {
    const js = await call('GET', '/docs/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.text.length).toBeGreaterThan(100_000);
    const css = await call('GET', '/docs/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/css/);
    const other = await call('GET', '/docs/package.json');
    expect(other.status).toBe(404);
    expect(typeof other.body.detail).toBe('string');
  });
});

describe('unknown routes', () => {
  it('an unknown path is 404 with the contract body and a request id', async () => {
    const res = await call('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(typeof res.body.detail).toBe('string');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
