/**
 * AWS calls made without the service's SDK client: a SigV4-signed POST by fetch, retried as the
 * SDK's standard retry mode retries. The clients of the few calls the service makes to KMS
 * (shared/kms-json.ts) and STS (shared/adapters/sts-assume-role.ts) are tens of KB of endpoint
 * rules and schemas each, and sat in most bundles past their size budget
 * (test/infra/bundle-budget.test.ts; docs/architecture.md, "Bundling"). These calls need only what
 * the DynamoDB client already carries: SigV4 signing (@smithy/signature-v4) and the default
 * credentials (in the bundles, shared/adapters/lambda-credentials.ts).
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

/**
 * An error a service answered, named as the SDK names it (its error code), with the SDK's
 * `$metadata` and `$retryable`: shared/http/outage.ts reads the name and status.
 */
export class AwsServiceError extends Error {
  readonly $metadata: { httpStatusCode: number };
  readonly $retryable?: { throttling: boolean };
  constructor(name: string, message: string, status: number) {
    super(message);
    this.name = name;
    this.$metadata = { httpStatusCode: status };
    const throttled = name === 'ThrottlingException' || name === 'Throttling' || status === 429;
    if (throttled || status >= 500) this.$retryable = { throttling: throttled };
  }
}

export interface SignedServiceOptions {
  region: string;
  /** Default `https://<service>.<region>.amazonaws.com/` (a local stand-in or a test's server otherwise). */
  endpoint?: string;
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Tries of a throttled or failed (5xx, network) call, as the SDK's standard retry mode: 3. */
  maxAttempts?: number;
}

/** What a service answered: its status and body. */
export interface SignedAnswer {
  status: number;
  headers: Headers;
  text: string;
}

const TIMEOUT_MS = 5_000;

/** Full jitter, as the SDK's standard retry mode: up to 25 ms * 2^attempt, at most 2 s. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 25 * 2 ** attempt)));

/** One service's endpoint, called with SigV4-signed POSTs. */
export class SignedService {
  private readonly url: URL;
  private readonly signer: SignatureV4;
  private readonly maxAttempts: number;

  constructor(service: string, options: SignedServiceOptions) {
    this.url = new URL(options.endpoint ?? `https://${service}.${options.region}.amazonaws.com/`);
    this.signer = new SignatureV4({
      service,
      region: options.region,
      credentials: options.credentials ?? defaultProvider(),
      sha256: Sha256,
    });
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  /**
   * POSTs `body` with `headers`; answers the body of a 2xx answer, else throws what `errorOf`
   * makes of the answer. A retryable error (AwsServiceError's `$retryable`) or a network failure
   * is tried again, up to maxAttempts.
   */
  async post(headers: Record<string, string>, body: string, errorOf: (answer: SignedAnswer) => Error): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await backoff(attempt);
      try {
        const answer = await this.send(headers, body);
        if (answer.status >= 200 && answer.status < 300) return answer.text;
        throw errorOf(answer);
      } catch (err) {
        const retryable = err instanceof AwsServiceError ? Boolean(err.$retryable) : !(err instanceof SyntaxError);
        if (!retryable || attempt + 1 >= this.maxAttempts) throw err;
      }
    }
  }

  private async send(headers: Record<string, string>, body: string): Promise<SignedAnswer> {
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      port: this.url.port ? Number(this.url.port) : undefined,
      path: this.url.pathname,
      query: {},
      headers: { host: this.url.host, ...headers },
      body,
    });
    const res = await fetch(this.url, {
      method: 'POST',
      headers: signed.headers,
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
}
