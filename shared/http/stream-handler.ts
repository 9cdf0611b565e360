/**
 * A route whose answer is a stream (server-sent events): a Lambda response stream
 * (`awslambda.streamifyResponse`) behind the REST API's streaming integration; under `npm start`
 * the same handler streams through the local server (shared/local/http-server.ts).
 *
 * The request first runs through the very chain buffered routes use (`handlerChain`, see
 * handler.ts): request id and log line, rate limits, authentication and role, validation, and
 * then the route's `open`, which checks what only the route knows (tenant scope, headers) and may
 * throw like any route function. A refusal (401, 403, 404, 422, 429, ...) is therefore the same
 * JSON answer with `X-Request-Id` as anywhere else, and no stream starts. Once `open` returns, the
 * status and headers go out and its body writes the stream until it is done, the client goes
 * away, or the function's time is nearly up.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { invocationFields, withLogContext, type Logger } from '../log.js';
import type { RouteDef } from '../routes/types.js';
import { traced } from '../tracing.js';
import { keepTenantScope } from '../tenant-scope.js';
import { handlerChain, httpRequestOf, type HttpRequest } from './handler.js';

/** What a stream body writes to. */
export interface StreamSink {
  /** Writes a chunk; waits while the client is slower than the writes. Rejects once the client is gone. A function, not a method: bodies pass it on unbound. */
  write: (chunk: string) => Promise<void>;
  /** Aborted when the client goes away, or at `deadline`. */
  signal: AbortSignal;
  /** Epoch ms by which the body must have finished: the function's timeout less a margin. */
  deadline: number;
}

/** Writes the stream; returning ends it cleanly. */
export type StreamBody = (sink: StreamSink) => Promise<void>;

/** A body with headers of its own (a content type chosen by `Accept`, a file name). */
export interface StreamReply {
  body: StreamBody;
  headers: Record<string, string>;
}

/**
 * Checks the request (throwing HttpErrors like any route function) and returns the body to stream,
 * alone or with headers that replace the route's.
 */
export type OpenStream<R extends RouteDef> = (req: HttpRequest<R>) => Promise<StreamBody | StreamReply>;

/** Kept back from the function's timeout so the stream ends cleanly rather than being cut. */
export const END_MARGIN_MS = 10_000;

export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
  constructor() {
    super('the client closed the stream');
  }
}

export function streamingHttpHandler<const R extends RouteDef>(route: R, open: NoInfer<OpenStream<R>>) {
  if (!route.streaming) throw new Error(`route ${route.id} is not marked streaming in the route table`);
  // What `open` returned, per invocation, from inside the chain to the streaming part below.
  // With the tenant scope it was opened in: the body runs after the chain returned, as that tenant.
  const opened = new WeakMap<
    Context,
    { body: StreamBody; log: Logger; asTenant: ReturnType<typeof keepTenantScope> }
  >();
  const admit = handlerChain(route, async (event, context) => {
    const req = httpRequestOf(route, event, context);
    const reply = await open(req);
    const { body, headers } = typeof reply === 'function' ? { body: reply, headers: {} } : reply;
    opened.set(context, { body, log: req.log, asTenant: keepTenantScope() });
    return {
      statusCode: route.response.status,
      headers: {
        'Content-Type': route.response.contentType ?? 'text/event-stream',
        // Neither a cache nor a buffering proxy may hold back a live stream.
        'Cache-Control': 'no-cache',
        'X-Accel-Buffering': 'no',
        ...headers,
      },
      body: '',
    };
  });

  // Each invocation in a log context of its own (shared/log.ts), the stream's lines included, and
  // in its trace's handler subsegment (shared/tracing.ts), the stream's reads included.
  return awslambda.streamifyResponse((event: APIGatewayProxyEvent, responseStream: Writable, context: Context) =>
    withLogContext(invocationFields(context), () =>
      traced({ route: route.id }, async () => {
        const result = await admit(event, context);
        const stream = opened.get(context);
        opened.delete(context);
        const { body: text, isBase64Encoded: _base64, ...prelude } = result;
        // The prelude (status, headers) goes out before the first body byte.
        const out = awslambda.HttpResponseStream.from(responseStream, prelude);
        if (!stream || result.statusCode >= 300) {
          // A refusal or an error, as the chain shaped it.
          out.end(text);
          await finished(out).catch(() => undefined);
          return;
        }
        const deadline = Date.now() + context.getRemainingTimeInMillis() - END_MARGIN_MS;
        await stream.asTenant(() => pump(out, stream.body, deadline, stream.log));
      }),
    ),
  );
}

async function pump(out: Writable, body: StreamBody, deadline: number, log: Logger): Promise<void> {
  const stop = new AbortController();
  // In AWS a client that goes away may not be noticed (the function runs on to the deadline);
  // locally, and wherever the runtime reports it, the stream closes or fails and polling stops.
  const gone = () => stop.abort(new ClientGoneError());
  out.once('close', gone);
  out.once('error', gone);
  const timer = setTimeout(
    () => stop.abort(new Error('the stream reached its deadline')),
    Math.max(0, deadline - Date.now()),
  );
  const write = async (chunk: string) => {
    if (stop.signal.aborted || out.destroyed || out.writableEnded) throw new ClientGoneError();
    if (!out.write(chunk)) await once(out, 'drain', { signal: stop.signal });
  };
  try {
    await body({ write, signal: stop.signal, deadline });
  } catch (err) {
    // A client that left is the normal end of a stream; anything else is a fault, and once bytes
    // are out the only way to report it is to end the stream (the client reconnects).
    if (!(err instanceof ClientGoneError || stop.signal.reason instanceof ClientGoneError))
      log.error('stream failed', { err });
  } finally {
    clearTimeout(timer);
    out.off('close', gone);
    out.off('error', gone);
  }
  if (!out.destroyed && !out.writableEnded) {
    out.end();
    await finished(out).catch(() => undefined);
  }
}
