/**
 * What the local runtime needs to invoke a worker as Lambda would: the handler loaded from the
 * worker's file, and a Lambda-like context with its request id and remaining time.
 */
import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { WorkerDef } from '../workers.js';
import { composeLocalRuntime, installLocalAdapters } from './compose.js';
import { LOCAL_ACCOUNT } from './event-bus.js';

export async function importHandler<H>(file: string): Promise<H> {
  composeLocalRuntime();
  await installLocalAdapters();
  const module = (await import(pathToFileURL(file).href)) as { handler?: unknown };
  if (typeof module.handler !== 'function') throw new Error(`${file} does not export a function named handler`);
  return module.handler as H;
}

/** A Lambda-like context for one invocation of `worker`, its timeout counted from now. */
export function workerContext(worker: WorkerDef, region: string): Context {
  const deadline = Date.now() + worker.timeoutSeconds * 1000;
  const unsupported = () => {
    throw new Error('callback-style completion (done/fail/succeed) is not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: worker.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${LOCAL_ACCOUNT}:function:${worker.id}`,
    memoryLimitInMB: String(worker.memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${worker.id}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    // Context still declares the callback-era members; a stand-in must provide them.
    /* eslint-disable @typescript-eslint/no-deprecated -- implementing, not calling */
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
    /* eslint-enable @typescript-eslint/no-deprecated */
  };
}
