/**
 * A stand-in for the Lambda Node.js runtime's global `awslambda`, so a handler written with
 * `awslambda.streamifyResponse` runs on a plain `node:http` server and really streams.
 *
 * `streamifyResponse` and `HttpResponseStream.from` behave as in the runtime interface client:
 * the former marks the handler, the latter sets the prelude content type and writes the JSON
 * prelude (status, headers, cookies) plus 8 NUL bytes before the first body byte. The local
 * response stream parses that prelude into the HTTP status line and headers and writes every
 * later chunk straight through to the `ServerResponse`.
 *
 * Install it before importing any handler: ESM imports are hoisted, and a handler module calls
 * `awslambda.streamifyResponse` while it loads.
 */
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';

/** The marker the runtime itself uses (Symbol.for, so a handler bundled elsewhere matches). */
export const STREAMING_HANDLER = Symbol.for('aws.lambda.runtime.handler.streaming');
const PRELUDE_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
const DELIMITER = Buffer.alloc(8);

type WriteFn = (chunk: string | Uint8Array) => void;

interface Prelude {
  statusCode?: number;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  cookies?: string[];
}

/** The `awslambda` global's surface that handlers use. */
const shim = {
  streamifyResponse: <T extends (...args: never[]) => unknown>(handler: T): T => {
    (handler as T & { [STREAMING_HANDLER]?: string })[STREAMING_HANDLER] = 'response';
    return handler;
  },
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class -- the runtime's API is a class with a static `from`
  HttpResponseStream: class HttpResponseStream {
    static from(
      stream: Writable & { setContentType?: (type: string) => void; _onBeforeFirstWrite?: (write: WriteFn) => void },
      prelude: Prelude,
    ) {
      stream.setContentType?.(PRELUDE_CONTENT_TYPE);
      const json = JSON.stringify(prelude); // JSON never contains a NUL byte
      stream._onBeforeFirstWrite = (write) => {
        write(json);
        write(new Uint8Array(DELIMITER.length));
      };
      return stream;
    }
  },
};

/**
 * Installs the stand-in unless a real runtime already provides `awslambda`. Idempotent. The AWS SDK
 * (through @aws/lambda-invoke-store) may already have created an empty `awslambda` object to hang
 * its InvokeStore on: the functions are added to that object, not replacing it.
 */
export function installAwslambdaShim(): void {
  const global = globalThis as { awslambda?: Record<string, unknown> };
  const target = (global.awslambda ??= {});
  if (typeof target.streamifyResponse !== 'function') {
    target.streamifyResponse = shim.streamifyResponse;
    target.HttpResponseStream = shim.HttpResponseStream;
  }
}

export function isStreamingHandler(handler: unknown): boolean {
  return (
    typeof handler === 'function' && (handler as { [STREAMING_HANDLER]?: unknown })[STREAMING_HANDLER] === 'response'
  );
}

/**
 * The `responseStream` a streaming handler receives. Writes go to the client as they happen
 * (chunked), headers are sent with the first byte or at the end.
 */
export class LocalResponseStream extends Writable {
  /** Set by `HttpResponseStream.from`; called once, before the first body byte. */
  _onBeforeFirstWrite?: (write: WriteFn) => void;
  private contentType = 'application/octet-stream';
  private started = false;
  /** Prelude bytes so far, while the content type says a prelude comes first. */
  private preludeBuffer: Buffer | undefined;

  constructor(private readonly res: ServerResponse) {
    super();
    // A client that goes away fails the stream, as in Lambda: pending and later writes, `end`
    // and `pipeline` see the error, so the handler finishes instead of waiting forever. The
    // no-op listener keeps a handler that never listens for 'error' from crashing the server.
    this.on('error', () => {});
    res.on('close', () => {
      if (!res.writableFinished) this.destroy(new Error('the client closed the connection'));
    });
  }

  setContentType(contentType: string): void {
    this.contentType = contentType;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    let body: Buffer;
    try {
      body = this.accept(chunk);
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (body.length === 0) callback();
    else this.res.write(body, (error) => callback(error));
  }

  override _final(callback: (error?: Error | null) => void): void {
    let body: Buffer;
    try {
      body = this.accept(Buffer.alloc(0));
      if (this.preludeBuffer !== undefined) {
        // Ended before the delimiter: what came is the prelude.
        this.sendHead(parsePrelude(this.preludeBuffer));
        this.preludeBuffer = undefined;
      }
      this.ensureHead();
    } catch (error) {
      callback(error as Error);
      return;
    }
    this.res.end(body.length ? body : undefined, () => callback());
  }

  /** Returns the body bytes in `chunk`, after sending the head when the prelude is complete. */
  private accept(chunk: Buffer): Buffer {
    const body: Buffer[] = [];
    if (!this.started) {
      this.started = true;
      if (this.contentType === PRELUDE_CONTENT_TYPE) this.preludeBuffer = Buffer.alloc(0);
      const hook = this._onBeforeFirstWrite;
      this._onBeforeFirstWrite = undefined;
      hook?.((bytes) => body.push(this.feed(Buffer.from(bytes))));
    }
    body.push(this.feed(chunk));
    return Buffer.concat(body);
  }

  private feed(chunk: Buffer): Buffer {
    if (this.preludeBuffer === undefined) {
      this.ensureHead();
      return chunk;
    }
    const buffer = Buffer.concat([this.preludeBuffer, chunk]);
    const end = buffer.indexOf(DELIMITER);
    if (end === -1) {
      this.preludeBuffer = buffer;
      return Buffer.alloc(0);
    }
    this.preludeBuffer = undefined;
    this.sendHead(parsePrelude(buffer.subarray(0, end)));
    return buffer.subarray(end + DELIMITER.length);
  }

  private ensureHead(): void {
    if (!this.res.headersSent) this.sendHead({ statusCode: 200, headers: { 'Content-Type': this.contentType } });
  }

  private sendHead(prelude: Prelude): void {
    const res = this.res;
    if (res.headersSent) return;
    res.statusCode = prelude.statusCode ?? 200;
    for (const [name, value] of Object.entries(prelude.headers ?? {})) res.setHeader(name, value);
    for (const [name, values] of Object.entries(prelude.multiValueHeaders ?? {})) res.setHeader(name, values);
    if (prelude.cookies?.length) res.setHeader('Set-Cookie', prelude.cookies);
    // Send the head now: an SSE client must see the headers before the first event.
    res.flushHeaders();
  }
}

function parsePrelude(bytes: Buffer): Prelude {
  const text = bytes.toString('utf8').replace(/\0+$/, '');
  if (!text) return {};
  return JSON.parse(text) as Prelude;
}
