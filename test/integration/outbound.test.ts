/**
 * The outbound guard (shared/adapters/outbound-address.ts and outbound-http.ts) against real
 * sockets: a receiver on loopback, the addresses a tenant must never make us call, a name that
 * resolves to one of them, redirects not followed, and a receiver that never answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOutboundUrl,
  OutboundRefusedError,
  refusalOf,
  type Resolve,
} from '../../shared/adapters/outbound-address.js';
import { getOutbound, postOutbound } from '../../shared/adapters/outbound-http.js';

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
      // Node writes an IPv4-compatible address it resolves in dotted form, which ipaddr.js reads as mapped.
      'compat.example': ['93.184.216.34', '::127.0.0.1'],
      'nat64.example': ['64:ff9b::a9fe:a9fe'],
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
    // IPv6 forms that carry an IPv4 address (issue 34, item 6): refused by the address they carry.
    ['https://[::7f00:1]:47960/x', 'embeds a loopback IPv4 address 127.0.0.1 (IPv4-compatible'],
    ['https://[::127.0.0.1]/hook', 'embeds a loopback IPv4 address 127.0.0.1 (IPv4-compatible'],
    ['https://[::a00:1]/hook', 'embeds a private IPv4 address 10.0.0.1 (IPv4-compatible'],
    ['https://[::ffff:0:a9fe:a9fe]/hook', 'embeds a linkLocal IPv4 address 169.254.169.254 (IPv4-translated'],
    ['https://[64:ff9b::c0a8:10a]/hook', 'embeds a private IPv4 address 192.168.1.10 (NAT64'],
    ['https://[2002:7f00:1::1]/hook', 'embeds a loopback IPv4 address 127.0.0.1 (6to4'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', 'embeds a loopback IPv4 address 127.0.0.1 (Teredo'],
    ['https://[::ffff:808:808]/hook', 'embeds the IPv4 address 8.8.8.8 (IPv4-mapped'],
    ['https://compat.example/hook', 'resolves to ::127.0.0.1 embeds a loopback IPv4 address 127.0.0.1'],
    ['https://nat64.example/hook', 'embeds a linkLocal IPv4 address 169.254.169.254 (NAT64'],
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
    // A user name and password are Basic authentication: kept sealed by whoever saves the URL (shared/url-secrets.ts).
    expect((await checkOutboundUrl('https://user:pw@hooks.example.com/in', closed, dns)).href).toBe(
      'https://user:pw@hooks.example.com/in',
    );
    await expect(checkOutboundUrl('https://nowhere.example/in', closed, dns)).rejects.toThrow('does not resolve');
    expect((await checkOutboundUrl(`${base}/in`, local, dns)).href).toBe(`${base}/in`);
    await expect(checkOutboundUrl(`${base}/in`, closed, dns)).rejects.toThrow('loopback');
    // Loopback allowed is loopback only: the metadata address stays refused.
    expect(refusalOf('169.254.169.254', local)).toMatch(/linkLocal/);
    // ... and loopback as such: carried in another IPv6 form it is refused, as the agent refuses it at connect time.
    await expect(checkOutboundUrl('http://[::7f00:1]:47960/x', local, dns)).rejects.toThrow(
      'embeds a loopback IPv4 address 127.0.0.1',
    );
    await expect(checkOutboundUrl('http://[::ffff:127.0.0.1]:47960/x', local, dns)).rejects.toThrow(
      'embeds a loopback IPv4 address 127.0.0.1',
    );
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

  it('refuses at connect time an IPv6 form that carries a loopback IPv4 address, as a literal and as what a name resolves to', async () => {
    const before = hits.length;
    const port = new URL(base).port;
    const literal = await postOutbound(`https://[::7f00:1]:${port}/hook`, { headers: {}, body: '{}' }, local);
    expect(literal).toMatchObject({ status: null, error: expect.stringMatching(/^refused: .*embeds a loopback IPv4/) });
    // A name saved while it resolved to a public address, resolving now to one of these forms (DNS rebinding).
    for (const now of [['::7f00:1'], ['::127.0.0.1'], ['2002:7f00:1::1'], ['64:ff9b::7f00:1']]) {
      const named = await postOutbound(
        `http://rebound.example:${port}/hook`,
        { headers: {}, body: '{}' },
        local,
        async () => ['127.0.0.1', ...now],
      );
      expect(named, now[0]).toMatchObject({
        status: null,
        error: expect.stringMatching(/^refused: its host rebound.example resolves to .*embeds a loopback IPv4/),
      });
      const fetched = await getOutbound(`http://rebound.example:${port}/big`, { maxBytes: 10 }, local, async () => now);
      expect(fetched.error, now[0]).toMatch(/^refused: .*embeds a loopback IPv4/);
    }
    expect(hits.length).toBe(before);
    // The same stand-in resolving to plain loopback, allowed here, is called: the socket used its answer.
    const allowed = await postOutbound(
      `http://rebound.example:${port}/hook`,
      { headers: {}, body: '{}' },
      local,
      async () => ['127.0.0.1'],
    );
    expect(allowed).toMatchObject({ status: 200, error: null });
    expect(hits.slice(before)).toEqual(['/hook']);
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
