/**
 * Traces (docs/observability.md#traces), on Powertools for AWS Lambda's Tracer and the X-Ray SDK:
 * Lambda's active tracing records each invocation's segment; this module adds ours inside it.
 *
 * - The handler subsegment (`## index.handler`, as Powertools names it): the route and worker
 *   chains run each invocation inside `traced` (shared/http/handler.ts, shared/worker-handler.ts),
 *   annotated `route` (the route id, or the worker id), `ColdStart` and `Service`, and `tier` (the
 *   plan of the tenant a request acts in) once the chain has decided the tenant (`annotateTier`).
 *   Never a tenant id, a user or a secret: annotations are indexed and shown to anyone who may read
 *   the traces.
 * - One subsegment per AWS call (DynamoDB, S3, EventBridge, SQS, ...): every AWS SDK client is
 *   `tracedClient` where it is made. Outbound HTTP (webhooks, feeds, notifications) is not
 *   captured: its URLs can carry credentials in their path (`captureHTTPsRequests: false`).
 *
 * Off unless the code runs in Lambda: Powertools traces only where Lambda's AWS_EXECUTION_ENV is
 * set (and POWERTOOLS_TRACE_ENABLED is not `false`), and elsewhere (`npm start`, the tests, the
 * scripts) the Tracer is not even loaded: loading the X-Ray SDK switches on an async hook that
 * runs at every promise of the process. There every function here hands back what it was given
 * and opens nothing. The bundles hold it all the same (the bundle budget counts it).
 */
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { redactUrlsIn } from './url-secrets.js';

/** Whether this process traces: Lambda's own variable, as Powertools decides. */
const TRACING =
  Boolean(process.env.AWS_EXECUTION_ENV) && process.env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false';

const tracer: Tracer | undefined = TRACING
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({
      serviceName: 'gatehouse',
      captureHTTPsRequests: false,
    })
  : undefined;

/** What the handler subsegment is annotated with at the start: the route id, or the worker id. */
export interface TraceStart {
  route: string;
}

/**
 * Runs one invocation in the handler subsegment: what it does, the AWS calls of `tracedClient`s
 * included, is traced inside it. An error it throws is recorded on it (its message and stack with
 * any URL's credentials redacted, as in the logs) and thrown on.
 */
export function traced<T>(start: TraceStart, fn: () => Promise<T>): Promise<T> {
  if (!tracer?.isTracingEnabled()) return fn();
  const name = `## ${process.env._HANDLER ?? 'handler'}`;
  const on = tracer;
  return on.provider.captureAsyncFunc(name, async (subsegment) => {
    on.annotateColdStart();
    on.addServiceNameAnnotation();
    on.putAnnotation('route', start.route);
    try {
      return await fn();
    } catch (err) {
      on.addErrorAsMetadata(redactedError(err));
      throw err;
    } finally {
      subsegment?.close();
    }
  }) as Promise<T>;
}

/** Annotates the invocation's handler subsegment with the plan of the tenant the request acts in. */
export function annotateTier(plan: string | null | undefined): void {
  if (plan && tracer?.isTracingEnabled()) tracer.putAnnotation('tier', plan);
}

/** An AWS SDK v3 client whose calls are traced, each as a subsegment of the invocation's (`traced`). */
export function tracedClient<T>(client: T): T {
  return tracer ? tracer.captureAWSv3Client(client) : client;
}

function redactedError(err: unknown): Error {
  const error = err instanceof Error ? err : new Error(String(err));
  const copy = new Error(redactUrlsIn(error.message));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : redactUrlsIn(error.stack);
  return copy;
}
