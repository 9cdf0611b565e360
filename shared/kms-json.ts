/**
 * KMS's JSON protocol without @aws-sdk/client-kms: that client is ~30 KB of endpoint rules and
 * schemas for KMS's 50 operations, and the calls the service makes (GenerateMac and VerifyMac of
 * the audit key: shared/db/audit/kms-mac.ts; Encrypt and Decrypt of the secrets key:
 * shared/adapters/secret-box.ts) sat in most bundles and broke their size budget
 * (test/infra/bundle-budget.test.ts; docs/architecture.md, "Bundling"). They need only what the
 * DynamoDB client already carries: SigV4 signing (@smithy/signature-v4) and the default
 * credentials (in the bundles, shared/adapters/lambda-credentials.ts); the request goes by fetch.
 *
 * The protocol: POST https://kms.<region>.amazonaws.com/ with `X-Amz-Target: TrentService.<op>`,
 * `Content-Type: application/x-amz-json-1.1` and a JSON body whose blobs are base64; an error
 * answers 4xx/5xx with `{"__type": "<name>", "message": ...}`.
 */
import { createHash, createHmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, SourceData } from '@smithy/types';

const bytes = (data: SourceData): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** SHA-256 (and its HMAC) for the signer, from node:crypto. */
class Sha256 {
  private readonly hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

/** An error KMS answered, named by its `__type` as the SDK names it (shared/http/outage.ts reads the name and status). */
export class KmsError extends Error {
  readonly $metadata: { httpStatusCode: number };
  readonly $retryable?: { throttling: boolean };
  constructor(name: string, message: string, status: number) {
    super(message);
    this.name = name;
    this.$metadata = { httpStatusCode: status };
    const throttled = name === 'ThrottlingException' || status === 429;
    if (throttled || status >= 500) this.$retryable = { throttling: throttled };
  }
}

export interface KmsJsonOptions {
  region: string;
  /** Default `https://kms.<region>.amazonaws.com` (a test's local server otherwise). */
  endpoint?: string;
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Tries of a throttled or failed (5xx, network) call, as the SDK's standard retry mode: 3. */
  maxAttempts?: number;
}

const TIMEOUT_MS = 5_000;

/** Full jitter, as the SDK's standard retry mode: up to 25 ms * 2^attempt, at most 2 s. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 25 * 2 ** attempt)));

export class KmsJson {
  private readonly url: URL;
  private readonly signer: SignatureV4;
  private readonly maxAttempts: number;

  constructor(options: KmsJsonOptions) {
    this.url = new URL(options.endpoint ?? `https://kms.${options.region}.amazonaws.com/`);
    this.signer = new SignatureV4({
      service: 'kms',
      region: options.region,
      credentials: options.credentials ?? defaultProvider(),
      sha256: Sha256,
    });
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  /** Calls `operation` with `body`; answers its JSON, or throws KmsError. */
  async call(operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const payload = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await backoff(attempt);
      try {
        return await this.send(operation, payload);
      } catch (err) {
        const retryable = err instanceof KmsError ? Boolean(err.$retryable) : !(err instanceof SyntaxError);
        if (!retryable || attempt + 1 >= this.maxAttempts) throw err;
      }
    }
  }

  private async send(operation: string, payload: string): Promise<Record<string, unknown>> {
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      port: this.url.port ? Number(this.url.port) : undefined,
      path: this.url.pathname,
      query: {},
      headers: {
        host: this.url.host,
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `TrentService.${operation}`,
      },
      body: payload,
    });
    const res = await fetch(this.url, {
      method: 'POST',
      headers: signed.headers,
      body: payload,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    const json = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (res.ok) return json;
    // `__type` may carry a namespace (`com.amazonaws.kms#Name`).
    const name = String(json.__type ?? res.headers.get('x-amzn-errortype') ?? `KMS${res.status}`)
      .split('#')
      .pop()!
      .split(':')[0]!;
    throw new KmsError(name, String(json.message ?? json.Message ?? name), res.status);
  }
}
