/**
 * The local S3 (shared/local/s3-local.ts) where s3rver alone differs from S3:
 * - HeadBucket answers from the bucket's existence and the caller's credentials, whatever the
 *   objects in it. /health's storage probe is a HeadBucket; s3rver on its own answered it by
 *   listing the bucket and reading every listed object's metadata, so the probe slowed as the
 *   bucket filled and failed on one damaged object.
 * - A presigned URL's signature and expiry are checked (shared/local/s3-presigned-check.ts):
 *   s3rver took any Signature Version 4 as valid, so a URL presigned for 100 bytes took 5,000.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, startS3Local } from '../../shared/local/s3-local.js';
import type { LocalService } from '../../shared/local/process.js';

const BUCKET = 'probe-bucket';
let dir: string;
let local: LocalService;

const client = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
  new S3Client({
    region: 'us-east-1',
    endpoint: local.endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-s3-local-'));
  local = await startS3Local({ directory: dir });
  const s3 = client(S3RVER_CREDENTIALS);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'a/one.txt', Body: 'one' }));
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'a/two.txt', Body: 'two' }));
});

afterAll(async () => {
  await local.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('local S3 HeadBucket', () => {
  it('answers for a bucket whose objects cannot be listed, and the listing still fails', async () => {
    const s3 = client(S3RVER_CREDENTIALS);
    // Damage one object on disk: its metadata file becomes a folder, so a listing cannot read it.
    const objectDir = join(dir, BUCKET, 'a');
    const metadata = readdirSync(objectDir).find((f) => f.startsWith('one.txt') && f.includes('metadata'));
    expect(metadata).toBeDefined();
    rmSync(join(objectDir, metadata!));
    mkdirSync(join(objectDir, metadata!));

    await expect(s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).rejects.toThrow();
    const head = await s3.send(new HeadBucketCommand({ Bucket: BUCKET }));
    expect(head.$metadata.httpStatusCode).toBe(200);
  });

  it('answers 404 for a bucket that does not exist', async () => {
    const s3 = client(S3RVER_CREDENTIALS);
    await expect(s3.send(new HeadBucketCommand({ Bucket: 'no-such-bucket' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('answers 403 to credentials s3rver does not know', async () => {
    const s3 = client({ accessKeyId: 'SOMEONE', secretAccessKey: 'ELSE' });
    await expect(s3.send(new HeadBucketCommand({ Bucket: BUCKET }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
  });
});

describe('local S3 presigned URLs', () => {
  const presignPut = (key: string, contentLength: number, options: { expiresIn?: number; signingDate?: Date } = {}) =>
    getSignedUrl(
      client(S3RVER_CREDENTIALS),
      new PutObjectCommand({ Bucket: BUCKET, Key: key, ContentLength: contentLength }),
      {
        expiresIn: options.expiresIn ?? 300,
        signingDate: options.signingDate,
        signableHeaders: new Set(['content-length']),
      },
    );

  it('takes the body the URL was signed for', async () => {
    const url = await presignPut('up/exact.bin', 100);
    const put = await fetch(url, { method: 'PUT', body: Buffer.alloc(100, 1) });
    expect(put.status, await put.text()).toBe(200);
    const get = await fetch(
      await getSignedUrl(client(S3RVER_CREDENTIALS), new GetObjectCommand({ Bucket: BUCKET, Key: 'up/exact.bin' })),
    );
    expect((await get.arrayBuffer()).byteLength).toBe(100);
  });

  it('refuses a body of another length than the one signed, and stores nothing', async () => {
    const url = await presignPut('up/longer.bin', 100);
    const put = await fetch(url, { method: 'PUT', body: Buffer.alloc(5000, 1) });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('SignatureDoesNotMatch');
    await expect(
      client(S3RVER_CREDENTIALS).send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'up/longer.bin' })),
    ).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('refuses a URL whose key was changed', async () => {
    const url = await presignPut('up/mine.bin', 10);
    const put = await fetch(url.replace('up/mine.bin', 'up/theirs.bin'), { method: 'PUT', body: Buffer.alloc(10) });
    expect(put.status).toBe(403);
  });

  it('refuses a URL that has expired', async () => {
    const url = await presignPut('up/late.bin', 10, { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });
    const put = await fetch(url, { method: 'PUT', body: Buffer.alloc(10) });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('expired');
  });
});
