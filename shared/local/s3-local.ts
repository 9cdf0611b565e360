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

/** The part of s3rver's (untyped, CommonJS) API used here. */
interface S3rverInstance {
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

export async function startS3Local(options: { directory: string }): Promise<LocalService> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  // Port 0: the kernel picks a free port at bind time, so there is no race to retry.
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: options.directory,
    silent: true,
    vhostBuckets: false,
  });
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
