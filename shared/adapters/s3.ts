/**
 * The files bucket: S3 in AWS, s3rver under `npm start` and the tests. s3rver needs path-style
 * addressing and no default request checksums (otherwise a streamed PutObject stores the
 * aws-chunked framing inside the object).
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config.js';
import { sdkClient } from '../runtime-ports.js';
import { chooseCredentialsPerCall } from '../tenant-scope.js';
import { tracedClient } from '../tracing.js';
import { bucketCallScope } from './object-keys.js';

export const s3 = sdkClient(
  tracedClient(
    new S3Client({
      region: config.region,
      ...(config.endpoints.s3
        ? {
            endpoint: config.endpoints.s3,
            forcePathStyle: true,
            requestChecksumCalculation: 'WHEN_REQUIRED' as const,
            responseChecksumValidation: 'WHEN_REQUIRED' as const,
          }
        : {}),
    }),
  ),
  's3',
);

// A call on a tenant's objects runs with that tenant's credentials (shared/adapters/object-keys.ts
// decides; docs/architecture.md, 27), presigned URLs included.
chooseCredentialsPerCall(s3, bucketCallScope);

export const BUCKET = config.bucketName;

/** Whether the bucket answers; for /health. */
export async function pingBucket(): Promise<void> {
  await s3.send(new HeadBucketCommand({ Bucket: BUCKET }));
}

/** Where an environment's files live: everything of one environment under one prefix. */
export const environmentPrefix = (tenantId: string, environmentId: string) =>
  `tenants/${tenantId}/environments/${environmentId}/`;

/** Deletes every object under `prefix`; returns how many. */
export async function deleteObjectsUnder(prefix: string): Promise<number> {
  let deleted = 0;
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }));
    const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (objects.length > 0) {
      const out = await s3.send(
        new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: objects, Quiet: true } }),
      );
      if (out.Errors && out.Errors.length > 0) {
        throw new Error(`could not delete ${out.Errors.length} objects under ${prefix}: ${out.Errors[0]?.Code}`);
      }
      deleted += objects.length;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return deleted;
}

/** Stores an object (the whole body at once; these are at most tens of megabytes). */
export async function putObject(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: contentType }));
}

/** Deletes one object (nothing when there is none). */
export async function deleteObject(key: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
}

/** An object's bytes, or null when there is none. */
export async function getObjectBytes(key: string): Promise<Buffer | null> {
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

/** An object's size, or null when there is none. */
export async function headObject(key: string): Promise<{ sizeBytes: number } | null> {
  try {
    const out = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return { sizeBytes: out.ContentLength ?? 0 };
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

/**
 * A URL that lets its holder PUT one object, for `expiresInSeconds`. With `contentLength`, S3
 * refuses a body of any other length (the header is signed); the local s3rver does not check.
 */
export async function presignPut(key: string, expiresInSeconds: number, contentLength?: number): Promise<string> {
  const command = new PutObjectCommand({ Bucket: BUCKET, Key: key, ContentLength: contentLength });
  return getSignedUrl(s3, command, {
    expiresIn: expiresInSeconds,
    ...(contentLength !== undefined ? { signableHeaders: new Set(['content-length']) } : {}),
  });
}

/** A URL that lets its holder GET one object, for `expiresInSeconds`. */
export async function presignGet(key: string, expiresInSeconds: number): Promise<string> {
  return getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: expiresInSeconds });
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}
