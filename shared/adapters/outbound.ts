/**
 * Every call the service makes to an address a tenant gave (webhook deliveries and tests,
 * integrations) goes through here, and none reaches a private network:
 * - when the address is saved, `checkOutboundUrl` resolves its host and refuses it if any address
 *   is not public unicast (loopback, private, link-local with the metadata address
 *   169.254.169.254, unique-local, multicast, unspecified, reserved, carrier-grade NAT, ...), for
 *   IPv4 and IPv6; an IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-compatible,
 *   IPv4-translated, NAT64, 6to4, Teredo) is refused whatever it carries, and the refusal names the
 *   carried address when that is not public;
 * - when it is called, `postOutbound` connects through request-filtering-agent, which checks the
 *   address the socket is actually opened to (a name that resolved to a public address when it
 *   was saved and to a private one now, DNS rebinding, is refused then), after the same
 *   `refusalOf` has judged the literal, or every address the name resolves to then; it follows no
 *   redirect, gives up after the timeout and reads at most a little of the answer.
 * Loopback (127.0.0.0/8 and ::1 as such, never carried in another IPv6 form) is allowed only when
 * the deployment says so (`OUTBOUND_ALLOW_LOOPBACK`, for receivers on the developer's machine
 * under `npm start`).
 */
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { ipv6Value } from './ip-address.js';

export interface OutboundPolicy {
  /** Loopback receivers (127.0.0.0/8, ::1) over plain http or https; never in AWS. */
  allowLoopback: boolean;
  /** Added to the refusal of a loopback address: how this deployment would allow one (local runs only). */
  loopbackHint?: string;
}

/** The address is refused before anything is sent; `reason` says why, for the caller's 422. */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
}

/** Resolves a host name to all its addresses (injectable, so tests can stand in for DNS). */
export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, order: 'verbatim' })).map((a) => a.address);

const LOOPBACK = ['127.0.0.0/8', '::1/128'] as const;

/**
 * An address as ipaddr.js sees it, or null when Node's isIP does not take it. IPv6 is handed over
 * as its eight groups: ipaddr.js reads the text `::a.b.c.d` (IPv4-compatible) as
 * `::ffff:a.b.c.d` (IPv4-mapped), and Node writes the IPv4-compatible addresses a name resolves to
 * in exactly that text.
 */
function parseIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6) return null;
  const value = ipv6Value(address.replace(/%.*$/, ''));
  return new ipaddr.IPv6(Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn)));
}

const ipv4Of = (bits: bigint): ipaddr.IPv4 => {
  const n = Number(bits & 0xffffffffn);
  return new ipaddr.IPv4([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
};

/**
 * The IPv6 forms that carry an IPv4 address, and the IPv4 addresses each carries (none for
 * local-use NAT64, where its place depends on the operator's prefix length, RFC 6052 2.2). Packets
 * to these reach the IPv4 address through the host's own stack, a translator or a tunnel, so the
 * IPv6 range says nothing of where they land. None is called, whatever it carries: a receiver is
 * reachable at its IPv4 address or its name, no DNS64 stands between the functions and the
 * internet, and request-filtering-agent refuses every one of these ranges at connect time but the
 * IPv4-compatible one (public unicast in ipaddr.js's table), so a URL saved with one never delivers.
 */
function carriedIPv4(address: ipaddr.IPv6): { form: string; carried: ipaddr.IPv4[] } | null {
  const value = address.parts.reduce((v, part) => (v << 16n) | BigInt(part), 0n);
  const top96 = value >> 32n;
  if (top96 === 0xffffn) return { form: 'IPv4-mapped, ::ffff:0:0/96', carried: [ipv4Of(value)] };
  // :: and ::1 are the unspecified and loopback addresses, judged as such.
  if (top96 === 0n) return value > 1n ? { form: 'IPv4-compatible, ::/96', carried: [ipv4Of(value)] } : null;
  if (top96 === 0xffff0000n) return { form: 'IPv4-translated, ::ffff:0:0:0/96', carried: [ipv4Of(value)] };
  if (top96 === 0x64ff9b0000000000000000n) return { form: 'NAT64, 64:ff9b::/96', carried: [ipv4Of(value)] };
  if (value >> 80n === 0x64ff9b0001n) return { form: 'local-use NAT64, 64:ff9b:1::/48', carried: [] };
  if (value >> 112n === 0x2002n) return { form: '6to4, 2002::/16', carried: [ipv4Of(value >> 80n)] };
  // Teredo: the server's address, and the client's with every bit inverted.
  if (value >> 96n === 0x20010000n)
    return { form: 'Teredo, 2001::/32', carried: [ipv4Of(value >> 64n), ipv4Of(~value)] };
  return null;
}

/** Why `address` may not be called under `policy`, or null when it may. */
export function refusalOf(address: string, policy: OutboundPolicy): string | null {
  const parsed = parseIp(address);
  if (!parsed) return `${address} is not an IP address`;
  const carrier = parsed.kind() === 'ipv6' ? carriedIPv4(parsed as ipaddr.IPv6) : null;
  if (carrier) {
    const hidden = carrier.carried.find((v4) => v4.range() !== 'unicast');
    if (hidden) return `${address} embeds a ${hidden.range()} IPv4 address ${hidden.toString()} (${carrier.form})`;
    const carried = carrier.carried.map((v4) => v4.toString());
    const what =
      carried.length === 0
        ? 'an IPv4 address'
        : `the IPv4 address${carried.length > 1 ? 'es' : ''} ${carried.join(' and ')}`;
    return `${address} embeds ${what} (${carrier.form}); an address that embeds one is never called`;
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  const hint = range === 'loopback' && policy.loopbackHint ? ` (${policy.loopbackHint})` : '';
  return `${address} is a ${range} address, not a public one${hint}`;
}

/** Why a host that resolves to `addresses` may not be called, or null when it may. */
function hostRefusal(host: string, addresses: readonly string[], policy: OutboundPolicy): string | null {
  if (addresses.length === 0) return `its host ${host} does not resolve`;
  for (const address of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) return `its host ${host} resolves to ${refusal}`;
  }
  return null;
}

const isLoopback = (address: string): boolean => parseIp(address)?.range() === 'loopback';

/**
 * The URL as it may be saved: http(s) only, https unless the host is loopback (and allowed), and
 * every address its host resolves to public. A user name and password in it are sent as HTTP Basic
 * authentication; whoever saves the URL keeps them sealed (shared/url-secrets.ts). Throws
 * OutboundRefusedError.
 */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy,
  resolve: Resolve = systemResolve,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefusedError('must be an https URL');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new OutboundRefusedError(`its host ${host} does not resolve`);
    }
  }
  const refusal = hostRefusal(host, addresses, policy);
  if (refusal) throw new OutboundRefusedError(refusal);
  const loopbackOnly = addresses.every(isLoopback);
  if (url.protocol === 'http:' && !loopbackOnly)
    throw new OutboundRefusedError('must be an https URL (plain http only to a loopback receiver)');
  return url;
}

export interface OutboundRequest {
  headers: Record<string, string>;
  body: string;
  /** Whole call, connect to last byte read (default 15 s). */
  timeoutMs?: number;
}

export interface OutboundAnswer {
  /** The receiver's status; null when there was none (refused, unreachable, timed out). */
  status: number | null;
  latencyMs: number;
  /** Why there is no status, or the call was refused. */
  error: string | null;
  /** The first bytes of the answer, for the delivery log. */
  bodyExcerpt: string;
}

const EXCERPT_BYTES = 1024;
/** Read no more than this of an answer (a receiver cannot make us buffer its megabytes). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** POSTs through the filtering agents; never throws for the receiver's faults, only reports them. */
export async function postOutbound(
  raw: string,
  req: OutboundRequest,
  policy: OutboundPolicy,
  resolve?: Resolve,
): Promise<OutboundAnswer> {
  const answer = await callOutbound(
    raw,
    'POST',
    req.headers,
    req.body,
    policy,
    req.timeoutMs ?? 15_000,
    MAX_ANSWER_BYTES,
    undefined,
    resolve,
  );
  // A long answer is read only in part; for a delivery that is no fault of the receiver's.
  return {
    status: answer.status,
    latencyMs: answer.latencyMs,
    error: answer.truncated ? null : answer.error,
    bodyExcerpt: answer.body.toString('utf8').slice(0, EXCERPT_BYTES),
  };
}

export interface OutboundDownload {
  /** The server's status; null when there was none (refused, unreachable, timed out). */
  status: number | null;
  latencyMs: number;
  /** Why there is no status, the call was refused, or the answer was cut. */
  error: string | null;
  /** The answer, at most `maxBytes`. */
  body: Buffer;
  /** The answer was longer than `maxBytes` and was cut there. */
  truncated: boolean;
}

/**
 * GETs a document (a public feed) through the filtering agents, reading at most `maxBytes`;
 * never throws for the server's faults, only reports them. No redirect is followed.
 */
export function getOutbound(
  raw: string,
  req: { headers?: Record<string, string>; timeoutMs?: number; maxBytes: number },
  policy: OutboundPolicy,
  resolve?: Resolve,
): Promise<OutboundDownload> {
  return callOutbound(
    raw,
    'GET',
    req.headers ?? {},
    null,
    policy,
    req.timeoutMs ?? 15_000,
    req.maxBytes,
    undefined,
    resolve,
  );
}

export interface OutboundStreamRead extends OutboundDownload {
  /**
   * Why the read stopped: `end` the server closed the stream, `window` the time bound passed,
   * `size` `maxBytes` were read (then `truncated`). The two bounds are a normal end, not an error.
   */
  stopped: 'end' | 'window' | 'size' | null;
}

/**
 * Reads an endless stream (RIS Live's HTTP stream) through the same guard as getOutbound: the
 * connection is made and checked as getOutbound's is (public addresses only, no redirect, an
 * answer within `timeoutMs`), then the body is read for `windowMs` at most and `maxBytes` at most,
 * and the connection closed. Reaching either bound is how a read of a stream ends, so it is no
 * error; the last line read may be cut (the caller drops it). Never throws for the server's faults.
 */
export async function streamOutbound(
  raw: string,
  req: { headers?: Record<string, string>; timeoutMs?: number; windowMs: number; maxBytes: number },
  policy: OutboundPolicy,
  resolve?: Resolve,
): Promise<OutboundStreamRead> {
  const read: { stopped: 'window' | null } = { stopped: null };
  const answer = await callOutbound(
    raw,
    'GET',
    req.headers ?? {},
    null,
    policy,
    req.timeoutMs ?? 15_000,
    req.maxBytes,
    {
      windowMs: req.windowMs,
      onStop: (why) => {
        read.stopped = why;
      },
    },
    resolve,
  );
  if (answer.status === null) return { ...answer, stopped: null };
  const why = answer.truncated ? 'size' : (read.stopped ?? 'end');
  return { ...answer, error: null, stopped: why };
}

/**
 * The lookup a call's socket uses for a name: every address the name resolves to now is judged by
 * `refusalOf` (request-filtering-agent then checks them again by its own table, which misses the
 * IPv4-compatible form), so a call is refused by the rules its address was saved under.
 */
function guardedLookup(policy: OutboundPolicy, resolve: Resolve | undefined): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const found: Promise<LookupAddress[]> = resolve
      ? resolve(hostname).then((list) =>
          list.map((address) => ({ address, family: isIP(address) })).filter((a) => !family || a.family === family),
        )
      : dnsLookup(hostname, { ...options, all: true });
    found.then(
      (addresses) => {
        const refusal = hostRefusal(
          hostname,
          addresses.map((a) => a.address),
          policy,
        );
        if (refusal) callback(new OutboundRefusedError(refusal), '');
        else if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: unknown) => {
        callback(err instanceof Error ? err : new Error(String(err)), '');
      },
    );
  };
}

function callOutbound(
  raw: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | null,
  policy: OutboundPolicy,
  timeoutMs: number,
  maxBytes: number,
  /** A stream: once the answer starts, read it for `windowMs` (then `onStop('window')`) instead of to its end. */
  stream?: { windowMs: number; onStop: (why: 'window') => void },
  /** Stands in for DNS where the socket resolves a name (tests); the system resolver otherwise. */
  resolve?: Resolve,
): Promise<OutboundDownload> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const nothing = (error: string): OutboundDownload => ({
    status: null,
    latencyMs: elapsed(),
    error,
    body: Buffer.alloc(0),
    truncated: false,
  });
  return new Promise((done) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      done({ ...nothing('not a URL'), latencyMs: 0 });
      return;
    }
    const filter = {
      allowPrivateIPAddress: false,
      allowMetaIPAddress: false,
      allowIPAddressList: policy.allowLoopback ? [...LOOPBACK] : [],
      // One connection per call: the check runs on every connect.
      keepAlive: false,
    };
    // An IP literal is checked here too (the agent checks resolved names at connect time).
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(host) ? refusalOf(host, policy) : null;
    if (literal) {
      done(nothing(`refused: ${literal}`));
      return;
    }
    const https = url.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    const agent = https ? new RequestFilteringHttpsAgent(filter) : new RequestFilteringHttpAgent(filter);
    let settled = false;
    const finish = (answer: OutboundDownload) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(windowTimer);
      agent.destroy();
      done(answer);
    };
    const call = send(url, {
      method,
      agent,
      lookup: guardedLookup(policy, resolve),
      headers: body === null ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      call.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    let windowTimer: ReturnType<typeof setTimeout> | undefined;
    call.on('response', (res) => {
      if (stream) {
        // The answer came in time: from here the window bounds the read, not the timeout.
        clearTimeout(timer);
        windowTimer = setTimeout(() => {
          stream.onStop('window');
          res.destroy();
        }, stream.windowMs);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = true;
          res.destroy();
          return;
        }
        size += chunk.length;
        chunks.push(chunk);
      });
      const end = () =>
        finish({
          status: res.statusCode ?? null,
          latencyMs: elapsed(),
          error: truncated ? `the answer is longer than ${maxBytes} bytes` : null,
          body: Buffer.concat(chunks),
          truncated,
        });
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
    });
    call.on('error', (err) => {
      const refused = err instanceof OutboundRefusedError || /is not allowed/.test(err.message);
      finish(nothing(refused ? `refused: ${err.message}` : err.message));
    });
    call.end(body ?? undefined);
  });
}
