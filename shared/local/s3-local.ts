/**
 * A local S3 (s3rver) inside this process, on a free port, keeping buckets and objects as files
 * under `directory`.
 *
 * Clients must use `forcePathStyle: true`, `requestChecksumCalculation: 'WHEN_REQUIRED'`,
 * `responseChecksumValidation: 'WHEN_REQUIRED'` and the credentials `S3RVER`/`S3RVER` (s3rver
 * checks the access key id), see docs/environment.md.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { LocalService } from './process.js';
import { checkPresignedRequests } from './s3-presigned-check.js';

/** The part of s3rver's (untyped, CommonJS) API used here. */
interface S3rverInstance {
  /** Koa's middleware list; its router is the last. */
  middleware: unknown[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  /** Path-style only: vhost matching would treat `127.0.0.1` oddly and we never use it. */
  vhostBuckets: boolean;
}) => S3rverInstance;

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

interface BucketController {
  getBucket(ctx: { method: string; status: number }): unknown;
  [HEAD_PATCHED]?: true;
}
const HEAD_PATCHED = Symbol.for('gatehouse.s3rver.headBucket');

/**
 * S3 answers HeadBucket from the bucket's existence and the caller's rights. s3rver routes HEAD
 * /:bucket to its GET handler, which walks the whole bucket folder (synchronously, on this
 * process's event loop) and reads the metadata of up to 1,000 objects, only for koa to drop the
 * body. /health's storage probe is a HeadBucket, so it grew with the bucket and, with the run's
 * objects in it, missed its 2 s budget under load (a red CI at 861e417). Here HEAD answers once
 * s3rver's own route has checked the credentials and that the bucket exists, as S3 does.
 */
function answerHeadBucketLikeS3(require: NodeJS.Require): void {
  const controller = require('s3rver/lib/controllers/bucket') as BucketController;
  if (controller[HEAD_PATCHED]) return;
  const getBucket = controller.getBucket.bind(controller);
  controller.getBucket = (ctx) => {
    if (ctx.method !== 'HEAD') return getBucket(ctx);
    ctx.status = 200;
    return undefined;
  };
  controller[HEAD_PATCHED] = true;
}

export async function startS3Local(options: { directory: string }): Promise<LocalService> {
  const require = createRequire(import.meta.url);
  const S3rver = require('s3rver') as S3rverConstructor;
  answerHeadBucketLikeS3(require);
  // Port 0: the kernel picks a free port at bind time, so there is no race to retry.
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: options.directory,
    silent: true,
    vhostBuckets: false,
  });
  // Before its router: the presigned requests' signatures, which s3rver does not check.
  server.middleware.splice(server.middleware.length - 1, 0, checkPresignedRequests(S3RVER_CREDENTIALS));
  const { port } = await server.run();
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop() {
      // SDK clients keep sockets alive; close them or close() waits for their idle timeout.
      stopped ??= (async () => {
        server.httpServer?.closeAllConnections();
        await server.close();
      })();
      return stopped;
    },
  };
}
