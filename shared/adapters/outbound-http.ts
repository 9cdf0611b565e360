/**
 * Every call the service makes to an address a tenant gave (webhook deliveries and tests,
 * integrations, feeds) goes through here, and none reaches a private network: `postOutbound`,
 * `getOutbound` and `streamOutbound` connect through request-filtering-agent, which checks the
 * address the socket is actually opened to (a name that resolved to a public address when it was
 * saved and to a private one now, DNS rebinding, is refused then), after `refusalOf`
 * (shared/adapters/outbound-address.ts, which judged the address when it was saved too) has judged
 * the literal, or every address the name resolves to then; it follows no redirect, gives up after
 * the timeout and reads at most a little of the answer. Loopback is called only when the policy
 * allows it (`OUTBOUND_ALLOW_LOOPBACK`).
 */
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { hostRefusal, OutboundRefusedError, refusalOf, type OutboundPolicy, type Resolve } from './outbound-address.js';

/** The addresses a policy that allows loopback lets request-filtering-agent connect to. */
const LOOPBACK = ['127.0.0.0/8', '::1/128'] as const;

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
/** How long a call waits for an answer when its caller does not say. */
const DEFAULT_TIMEOUT_MS = 15_000;
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
    {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      resolve,
    },
    policy,
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
  return callOutbound(raw, getCall(req, resolve), policy);
}

/** A GET of getOutbound and streamOutbound: no body, the caller's headers, time and size bounds. */
function getCall(
  req: { headers?: Record<string, string>; timeoutMs?: number; maxBytes: number },
  resolve: Resolve | undefined,
): OutboundCall {
  return {
    method: 'GET',
    headers: req.headers ?? {},
    body: null,
    timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: req.maxBytes,
    resolve,
  };
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
    {
      ...getCall(req, resolve),
      stream: {
        windowMs: req.windowMs,
        onStop: (why) => {
          read.stopped = why;
        },
      },
    },
    policy,
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

/** One guarded call: what callOutbound sends and how long and how much it reads. */
interface OutboundCall {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  maxBytes: number;
  /** A stream: once the answer starts, read it for `windowMs` (then `onStop('window')`) instead of to its end. */
  stream?: { windowMs: number; onStop: (why: 'window') => void };
  /** Stands in for DNS where the socket resolves a name (tests); the system resolver otherwise. */
  resolve?: Resolve | undefined;
}

function callOutbound(raw: string, spec: OutboundCall, policy: OutboundPolicy): Promise<OutboundDownload> {
  const { method, headers, body, timeoutMs, maxBytes, stream, resolve } = spec;
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
