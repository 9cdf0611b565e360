/**
 * The files bucket: S3 in AWS, s3rver under `npm start` and the tests. s3rver needs path-style
 * addressing and no default request checksums (otherwise a streamed PutObject stores the
 * aws-chunked framing inside the object).
 */
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { config } from '../config.js';

export const s3 = new S3Client({
  region: config.region,
  ...(config.endpoints.s3
    ? {
        endpoint: config.endpoints.s3,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED' as const,
        responseChecksumValidation: 'WHEN_REQUIRED' as const,
      }
    : {}),
});

export const BUCKET = config.bucketName;

/** Whether the bucket answers; for /health. */
export async function pingBucket(): Promise<void> {
  await s3.send(new HeadBucketCommand({ Bucket: BUCKET }));
}
