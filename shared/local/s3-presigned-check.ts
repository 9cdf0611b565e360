/**
 * What S3 checks of a presigned URL and s3rver does not (it takes any Signature Version 4 as
 * valid): the signature, recomputed over the request as it arrives, and the expiry. A URL
 * presigned for a `content-length` of 100 (shared/adapters/s3.ts `presignPut`) is refused for a
 * body of 5,000 bytes, as S3 refuses it (403 SignatureDoesNotMatch), and so is a URL whose key or
 * expiry was changed, or that has expired (403 AccessDenied).
 */
import { createHash, createHmac, type BinaryLike } from 'node:crypto';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';

/** The part of a koa context this reads and answers with. */
export interface PresignedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  get(header: string): string;
  status: number;
  type: string;
  body: unknown;
}

/** What the signer hands a hash: text or bytes. */
type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data): BinaryLike =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** SHA-256 and HMAC-SHA-256 as the signer wants them (the SDK's Hash interface), from node:crypto. */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Data): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `20261128T154500Z` as a Date. */
function amzDate(value: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
}

function refuse(ctx: PresignedRequest, code: string, message: string): void {
  ctx.status = 403;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/**
 * A koa middleware for s3rver: requests presigned with Signature Version 4 pass only when their
 * signature is the one these credentials make for the request as received, and before expiry.
 */
export function checkPresignedRequests(credentials: { accessKeyId: string; secretAccessKey: string }) {
  return async (ctx: PresignedRequest, next: () => Promise<unknown>): Promise<unknown> => {
    const provided = one(ctx.query['X-Amz-Signature']);
    if (provided === undefined) return next();
    const credential = one(ctx.query['X-Amz-Credential']) ?? '';
    const [, , region, service] = credential.split('/');
    const signingDate = amzDate(one(ctx.query['X-Amz-Date']) ?? '');
    const expiresIn = Number(one(ctx.query['X-Amz-Expires']));
    const signedHeaders = (one(ctx.query['X-Amz-SignedHeaders']) ?? '').split(';').filter(Boolean);
    if (
      !region ||
      service !== 's3' ||
      !signingDate ||
      !Number.isInteger(expiresIn) ||
      !signedHeaders.includes('host')
    ) {
      refuse(ctx, 'AuthorizationQueryParametersError', 'The presigned URL is malformed.');
      return;
    }
    if (Date.now() > signingDate.getTime() + expiresIn * 1000) {
      refuse(ctx, 'AccessDenied', 'Request has expired');
      return;
    }
    // The request as received, without the presigning's own parameters; the signer adds them again.
    const query: Record<string, string> = {};
    for (const [name, value] of Object.entries(ctx.query)) {
      const v = one(value);
      if (v !== undefined && !name.startsWith('X-Amz-')) query[name] = v;
    }
    const headers = Object.fromEntries(signedHeaders.map((h) => [h, ctx.get(h)]));
    const [hostname = '', port] = (headers.host ?? '').split(':');
    const presigner = new S3RequestPresigner({ credentials, region, sha256: NodeSha256 });
    const signed = await presigner.presign(
      {
        method: ctx.method,
        protocol: 'http:',
        hostname,
        port: port ? Number(port) : undefined,
        path: ctx.path,
        query,
        headers,
      },
      { signingDate, expiresIn, signableHeaders: new Set(signedHeaders) },
    );
    if (one(signed.query?.['X-Amz-Signature'] ?? undefined) !== provided) {
      refuse(
        ctx,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      );
      return;
    }
    return next();
  };
}
