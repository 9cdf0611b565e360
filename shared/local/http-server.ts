/**
 * The local API Gateway: a plain `node:http` server that mounts every route of the route table and
 * invokes the very Lambda handler of each route with a REST proxy (v1) event, then writes the
 * proxy result back (or streams it, for `awslambda.streamifyResponse` handlers).
 *
 * Errors of its own (404, 405, 413, a handler that throws) answer like the handler chain does:
 * JSON `{"detail": ...}` with an `X-Request-Id` header.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ROUTES } from '../routes/index.js';
import { acceptsGzip, MIN_COMPRESSION_BYTES } from '../http/media-types.js';
import type { RouteDef } from '../routes/types.js';
import { isStreamingHandler, LocalResponseStream } from './awslambda-shim.js';
import { composeLocalRuntime, installLocalAdapters } from './compose.js';
import { buildContext, buildProxyEvent } from './proxy-event.js';
import { RouteMatcher } from './route-matcher.js';
import { writeLogLine } from '../log-sink.js';
import { counterActions } from '../iam.js';
import { runAsRoute } from './iam-check.js';
import { announceHandlers, sourceHandlers, type HandlerFiles } from './handler-files.js';

/** API Gateway's payload limit. (Lambda's own invoke limit, 6 MB, is lower; see the README.) */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface HttpServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Defaults to the route table; tests mount their own handlers. */
  routes?: readonly RouteDef[];
  /** Handler paths are relative to this directory; defaults to the repository root. */
  rootDir?: string;
  /** Where the handlers are: the sources under `rootDir` by default, or the bundles (shared/local/handler-files.ts). */
  files?: HandlerFiles;
  stage?: string;
  region?: string;
  maxBodyBytes?: number;
  /** Client address from X-Forwarded-For, so tests can play many clients. Off under `npm start`. */
  trustForwardedFor?: boolean;
  /**
   * A JSON log line for each response the server gives itself (404, 405, 413, 400): those never
   * reach a handler, whose chain logs every other request.
   */
  logOwnResponses?: boolean;
  /** Where log lines go; JSON lines on stdout (errors on stderr) by default. */
  log?: (line: LogLine) => void;
}

export interface LogLine {
  level: 'info' | 'error';
  source: 'local-server';
  msg: string;
  request_id: string;
  [field: string]: unknown;
}

const writeLine = (line: LogLine) => writeLogLine(line);

export interface LocalHttpServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: LocalResponseStream,
  context: Context,
) => Promise<unknown>;

export async function startHttpServer(options: HttpServerOptions = {}): Promise<LocalHttpServer> {
  // Before any handler module loads: a streaming handler calls awslambda.streamifyResponse then,
  // and every route's chain asks for its compiled validators.
  composeLocalRuntime();
  await installLocalAdapters();
  const routes = options.routes ?? ROUTES;
  const files = options.files ?? sourceHandlers(options.rootDir);
  announceHandlers(files);
  const stage = options.stage ?? 'local';
  const region = options.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const matcher = new RouteMatcher(routes);
  const log = options.log ?? writeLine;
  const logError = (msg: string, error: unknown, requestId: string) => {
    const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
    log({ level: 'error', source: 'local-server', msg, request_id: requestId, ...detail });
  };
  // One import per handler file, on first use, like a cold start.
  const handlers = new Map<string, Promise<unknown>>();
  const loadHandler = (route: RouteDef) => {
    const file = files.fileOf(route);
    let loaded = handlers.get(file);
    if (!loaded) {
      loaded = importHandler(file);
      handlers.set(file, loaded);
    }
    return loaded;
  };

  const server = createServer((req, res) => {
    const started = performance.now();
    const requestId = randomUUID();
    let answeredByHandler = false;
    res.on('finish', () => {
      if (!options.logOwnResponses || answeredByHandler) return;
      log({
        level: 'info',
        source: 'local-server',
        msg: 'request',
        request_id: requestId,
        method: req.method,
        path: req.url,
        status: res.statusCode,
        duration_ms: Math.round(performance.now() - started),
      });
    });
    handle(req, res, requestId, () => (answeredByHandler = true)).catch((error: unknown) => {
      logError('unhandled error in the local server', error, requestId);
      if (!res.headersSent) sendJson(res, 500, { detail: `Internal Server Error (request ${requestId})` }, requestId);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string, invoked: () => void) {
    const receivedAt = new Date();
    const url = new URL(req.url?.startsWith('/') ? `http://local${req.url}` : (req.url ?? '/'), 'http://local');
    const match = matcher.match(req.method ?? 'GET', url.pathname);
    if (match.kind === 'not-found') return sendJson(res, 404, { detail: 'Not Found' }, requestId);
    if (match.kind === 'bad-path')
      return sendJson(res, 400, { detail: 'Malformed path: invalid percent-encoding' }, requestId);
    if (match.kind === 'method-not-allowed') {
      return sendJson(res, 405, { detail: 'Method Not Allowed' }, requestId, { Allow: match.allow.join(', ') });
    }
    const { route } = match;

    const body = await readBody(req, maxBodyBytes);
    if (body === 'too-large') {
      return sendJson(res, 413, { detail: `Request body too large: the limit is ${maxBodyBytes} bytes` }, requestId, {
        Connection: 'close',
      });
    }

    let handler: unknown;
    try {
      handler = await loadHandler(route);
    } catch (error) {
      logError(`cannot load the handler of route ${route.id} (${route.handler})`, error, requestId);
      return sendJson(res, 500, { detail: `Internal Server Error (request ${requestId})` }, requestId);
    }
    if (isStreamingHandler(handler) !== Boolean(route.streaming)) {
      // In AWS the integration's transfer mode follows the route's flag; a mismatch breaks there.
      const why = route.streaming
        ? 'is streaming in the route table but its handler is not wrapped in awslambda.streamifyResponse'
        : 'is not streaming in the route table but its handler is wrapped in awslambda.streamifyResponse';
      logError(`route ${route.id} ${why}`, new Error(why), requestId);
      return sendJson(res, 500, { detail: `Internal Server Error (request ${requestId})` }, requestId);
    }
    invoked();
    const event = buildProxyEvent({
      req,
      url,
      body,
      route,
      pathParameters: match.pathParameters,
      requestId,
      stage,
      receivedAt,
      trustForwardedFor: options.trustForwardedFor,
    });
    const context = buildContext(route, randomUUID(), region);

    if (route.streaming) {
      const stream = new LocalResponseStream(res);
      try {
        await runAsRoute(route, counterActions(route), () => (handler as StreamingHandler)(event, stream, context));
      } catch (error) {
        if (res.destroyed) return; // the client left; its writes failing is expected
        logError(`streaming handler of route ${route.id} failed`, error, requestId);
        // Once bytes are out, a fault can only cut the stream short, as in AWS.
        if (!res.headersSent) sendJson(res, 500, { detail: `Internal Server Error (request ${requestId})` }, requestId);
        else res.destroy();
        return;
      }
      // The runtime finishes the response when the handler's promise settles.
      if (!stream.writableEnded && !stream.destroyed) stream.end();
      return;
    }

    let result: APIGatewayProxyResult;
    const started = performance.now();
    try {
      result = await runAsRoute(route, counterActions(route), () => (handler as ProxyHandler)(event, context));
    } catch (error) {
      logError(`handler of route ${route.id} threw`, error, requestId);
      return sendJson(res, 500, { detail: `Internal Server Error (request ${requestId})` }, requestId);
    }
    if (!result || typeof result !== 'object' || !Number.isInteger(result.statusCode)) {
      // API Gateway answers 502 to a malformed Lambda proxy response.
      logError(
        `handler of route ${route.id} returned a malformed proxy result`,
        new Error(JSON.stringify(result)),
        requestId,
      );
      return sendJson(
        res,
        502,
        { detail: `Bad Gateway: malformed Lambda proxy response (request ${requestId})` },
        requestId,
      );
    }
    // How long the function ran, as Lambda would bill it (without this server's own work): a
    // standard header browsers' developer tools show; the request-cost benchmark reads it.
    res.setHeader('Server-Timing', `handler;dur=${(performance.now() - started).toFixed(1)}`);
    writeResult(res, result, req.headers['accept-encoding']);
  }

  // What Node's parser refuses before any handler runs (a request line and headers past its 16 KB,
  // a request it cannot read) is answered in the contract's shape too, not with Node's bare
  // status line: JSON, with X-Request-Id.
  // Idle keep-alive connections are closed by the client first (undici and most clients give up
  // on an idle socket within 4 to 60 s): a server that closes one while it is busy can close it
  // under a request the client just sent on it ("other side closed"). API Gateway keeps idle
  // connections far longer than Node's default 5 s too.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
    const detail =
      status === 431
        ? 'The request line and headers are larger than 16 KB (a long query string?): send less, or send it in a body'
        : status === 414
          ? 'The request line is too long'
          : 'The request could not be read as HTTP';
    const body = JSON.stringify({ detail });
    if (options.logOwnResponses)
      log({ level: 'info', source: 'local-server', msg: 'request', request_id: requestId, status, error: err.code });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  const address = await new Promise<AddressInfo>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen(server.address() as AddressInfo);
    });
  });
  const url = `http://${address.address}:${address.port}`;
  // The links sent to people point here, unless PUBLIC_API_URL names another address. Imported
  // late, as in compose.ts: the configuration is read once the stack's settings are in place.
  (await import('../config.js')).useLocalPublicApiUrl(url);
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    server,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        server.close(() => done());
        // Open event streams would otherwise hold the close forever.
        server.closeAllConnections();
      })),
  };
}

async function importHandler(file: string): Promise<unknown> {
  const module = (await import(pathToFileURL(file).href)) as { handler?: unknown };
  if (typeof module.handler !== 'function') throw new Error(`${file} does not export a function named handler`);
  return module.handler;
}

/**
 * The whole body, or 'too-large' once it passes `limit`. An oversized body is still read (and
 * dropped) to its end, so the client gets the 413 rather than a reset connection.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
      // Beyond several times the limit, stop reading: not a client worth waiting for.
      if (size > limit * 4) resolveBody('too-large');
    });
    req.on('end', () => resolveBody(size > limit ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Writes a proxy result as API Gateway does: `multiValueHeaders` win over `headers` for the same
 * name, a base64 body is decoded, and the content type defaults to application/json.
 */
function writeResult(res: ServerResponse, result: APIGatewayProxyResult, acceptEncoding?: string): void {
  const headers = new Map<string, [string, string[]]>();
  for (const [name, value] of Object.entries(result.headers ?? {}))
    headers.set(name.toLowerCase(), [name, [String(value)]]);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    headers.set(name.toLowerCase(), [name, values.map(String)]);
  }
  let body =
    result.body == null ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  if (!headers.has('content-type') && body.length > 0)
    headers.set('content-type', ['Content-Type', ['application/json']]);
  // As the REST API's minimumCompressionSize does: gzip past the size, for a client that accepts it.
  if (body.length >= MIN_COMPRESSION_BYTES && acceptsGzip(acceptEncoding) && !headers.has('content-encoding')) {
    body = gzipSync(body);
    headers.set('content-encoding', ['Content-Encoding', ['gzip']]);
  }
  res.statusCode = result.statusCode;
  for (const [name, values] of headers.values()) res.setHeader(name, values.length === 1 ? (values[0] ?? '') : values);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  requestId: string,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': requestId,
    ...extra,
  });
  res.end(text);
}
