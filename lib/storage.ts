/**
 * The files bucket (infrastructure uploads, voice recordings) and the bucket its access logs go
 * to. Private, encrypted, TLS only. No CORS: uploads and downloads go through the API, not
 * straight from browsers.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface StorageProps {
  /** Keep both buckets when the stack goes. */
  readonly retain: boolean;
}

export class Storage extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const common = {
      // S3-managed keys: server access log delivery cannot write to a KMS-encrypted target,
      // and SSE-S3 needs no key grants in every function.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy,
    };

    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      ...common,
      // cdk-nag recognises a log target and does not ask it to log itself.
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });

    this.bucket = new s3.Bucket(this, 'Files', {
      ...common,
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'files/',
      // Browsers PUT large infrastructure files straight to presigned URLs; the signature, not the
      // origin, is what authorises an upload.
      cors: [
        {
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
          allowedOrigins: ['*'],
          allowedHeaders: ['content-type', 'content-length'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        // Versioning protects against overwrites and deletes; old versions need not live forever.
        { noncurrentVersionExpiration: Duration.days(30) },
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Raw fibre-sensor frames (docs/fibre-telemetry.md), kept as long as their index items.
        { prefix: 'telemetry/', expiration: Duration.days(90) },
        // Athena's results of data-lake queries (lib/data-lake.ts): read once, by the route.
        { prefix: 'lake-results/', expiration: Duration.days(1) },
      ],
    });
  }
}
