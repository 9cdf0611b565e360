/**
 * The outbound guard (shared/adapters/outbound.ts) against real sockets: a receiver on loopback,
 * the addresses a tenant must never make us call, a name that resolves to one of them, redirects
 * not followed, and a receiver that never answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOutboundUrl,
  getOutbound,
  OutboundRefusedError,
  postOutbound,
  refusalOf,
  type Resolve,
} from '../../shared/adapters/outbound.js';

const closed = { allowLoopback: false };
const local = { allowLoopback: true };

let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `${base}/elsewhere` }).end();
      } else if (req.url === '/silent') {
        // Never answers.
      } else if (req.url === '/big') {
        res.writeHead(200).end('x'.repeat(1024 * 1024));
      } else {
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`got ${body.length} bytes, signed ${String(req.headers['webhook-id'] ?? 'no')}`);
      }
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

describe('checkOutboundUrl', () => {
  const dns: Resolve = async (host) =>
    ({
      'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      'internal.example': ['10.0.0.1'],
      'mixed.example': ['93.184.216.34', '169.254.169.254'],
    })[host] ?? [];

  it.each([
    ['https://169.254.169.254/latest/meta-data', 'linkLocal'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://192.168.1.10/hook', 'private'],
    ['https://172.16.0.5/hook', 'private'],
    ['https://100.64.0.1/hook', 'carrierGradeNat'],
    ['https://[::1]/hook', 'loopback'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://[fd00::1]/hook', 'uniqueLocal'],
    ['https://[fe80::1]/hook', 'linkLocal'],
    ['https://224.0.0.1/hook', 'multicast'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://[::ffff:169.254.169.254]/hook', 'linkLocal'],
    ['https://internal.example/hook', 'private'],
    ['https://mixed.example/hook', 'linkLocal'],
  ])('refuses %s (%s)', async (url, range) => {
    const refused = checkOutboundUrl(url, closed, dns);
    await expect(refused).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(refused).rejects.toThrow(range);
  });

  it('takes a public https URL, and plain http or loopback only where they are allowed', async () => {
    expect((await checkOutboundUrl('https://hooks.example.com/in', closed, dns)).href).toBe(
      'https://hooks.example.com/in',
    );
    await expect(checkOutboundUrl('http://hooks.example.com/in', closed, dns)).rejects.toThrow('https');
    await expect(checkOutboundUrl('ftp://hooks.example.com/in', closed, dns)).rejects.toThrow('https');
    await expect(checkOutboundUrl('https://user:pw@hooks.example.com/in', closed, dns)).rejects.toThrow('password');
    await expect(checkOutboundUrl('https://nowhere.example/in', closed, dns)).rejects.toThrow('does not resolve');
    expect((await checkOutboundUrl(`${base}/in`, local, dns)).href).toBe(`${base}/in`);
    await expect(checkOutboundUrl(`${base}/in`, closed, dns)).rejects.toThrow('loopback');
    // Loopback allowed is loopback only: the metadata address stays refused.
    expect(refusalOf('169.254.169.254', local)).toMatch(/linkLocal/);
  });
});

describe('postOutbound', () => {
  it('delivers to an allowed receiver and reports its answer', async () => {
    const answer = await postOutbound(
      `${base}/hook`,
      { headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' }, body: '{"a":1}' },
      local,
    );
    expect(answer).toMatchObject({ status: 200, error: null, bodyExcerpt: 'got 7 bytes, signed msg_1' });
  });

  it('refuses at connect time what the policy does not allow, by address and by a name that resolves to it', async () => {
    const before = hits.length;
    const literal = await postOutbound(`${base}/hook`, { headers: {}, body: '{}' }, closed);
    expect(literal).toMatchObject({ status: null, error: expect.stringMatching(/^refused/) });
    // `localhost` is checked where the socket connects (a name saved as public could point here later).
    const port = new URL(base).port;
    const named = await postOutbound(`http://localhost:${port}/hook`, { headers: {}, body: '{}' }, closed);
    expect(named).toMatchObject({ status: null, error: expect.stringMatching(/^refused/) });
    expect(hits.length).toBe(before);
    const metadata = await postOutbound('http://169.254.169.254/latest/meta-data', { headers: {}, body: '{}' }, local);
    expect(metadata.error).toMatch(/^refused/);
  });

  it('follows no redirect, gives up on a silent receiver, and reads only the start of a big answer', async () => {
    const before = hits.length;
    expect((await postOutbound(`${base}/redirect`, { headers: {}, body: '{}' }, local)).status).toBe(302);
    expect(hits.slice(before)).toEqual(['/redirect']);
    const silent = await postOutbound(`${base}/silent`, { headers: {}, body: '{}', timeoutMs: 300 }, local);
    expect(silent).toMatchObject({ status: null, error: 'no answer within 300 ms' });
    const big = await postOutbound(`${base}/big`, { headers: {}, body: '{}' }, local);
    expect(big.status).toBe(200);
    expect(big.bodyExcerpt).toHaveLength(1024);
  });
});

describe('getOutbound', () => {
  it('downloads a document whole within its bound, and says when it had to cut one', async () => {
    const whole = await getOutbound(`${base}/big`, { maxBytes: 2 * 1024 * 1024 }, local);
    expect(whole).toMatchObject({ status: 200, error: null, truncated: false });
    expect(whole.body.length).toBe(1024 * 1024);
    const cut = await getOutbound(`${base}/big`, { maxBytes: 100_000 }, local);
    expect(cut).toMatchObject({ status: 200, truncated: true, error: 'the answer is longer than 100000 bytes' });
    expect(cut.body.length).toBe(100_000);
  });

  it('is refused where a POST would be, follows no redirect, and gives up on a silent server', async () => {
    const before = hits.length;
    expect(await getOutbound(`${base}/big`, { maxBytes: 10 }, closed)).toMatchObject({
      status: null,
      error: expect.stringMatching(/^refused/),
    });
    expect(hits.length).toBe(before);
    expect((await getOutbound(`${base}/redirect`, { maxBytes: 10 }, local)).status).toBe(302);
    expect(hits.slice(before)).toEqual(['/redirect']);
    expect(await getOutbound(`${base}/silent`, { maxBytes: 10, timeoutMs: 300 }, local)).toMatchObject({
      status: null,
      error: 'no answer within 300 ms',
    });
  });
});
