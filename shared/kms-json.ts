/**
 * KMS's JSON protocol without @aws-sdk/client-kms: that client is ~30 KB of endpoint rules and
 * schemas for KMS's 50 operations, and the calls the service makes (GenerateMac and VerifyMac of
 * the audit key: shared/db/audit/kms-mac.ts; Encrypt and Decrypt of the secrets key:
 * shared/adapters/secret-box.ts) sat in most bundles and broke their size budget. The request is
 * signed and sent by shared/aws-signed.ts.
 *
 * The protocol: POST https://kms.<region>.amazonaws.com/ with `X-Amz-Target: TrentService.<op>`,
 * `Content-Type: application/x-amz-json-1.1` and a JSON body whose blobs are base64; an error
 * answers 4xx/5xx with `{"__type": "<name>", "message": ...}`.
 */
import { AwsServiceError, SignedService, type SignedAnswer, type SignedServiceOptions } from './aws-signed.js';

/** An error KMS answered, named by its `__type` as the SDK names it (shared/http/outage.ts reads the name and status). */
export class KmsError extends AwsServiceError {}

export type KmsJsonOptions = SignedServiceOptions;

/** KMS's error answer: `__type` may carry a namespace (`com.amazonaws.kms#Name`). */
function kmsError({ status, headers, text }: SignedAnswer): KmsError {
  const json = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  const name = String(json.__type ?? headers.get('x-amzn-errortype') ?? `KMS${status}`)
    .split('#')
    .pop()!
    .split(':')[0]!;
  return new KmsError(name, String(json.message ?? json.Message ?? name), status);
}

export class KmsJson {
  private readonly service: SignedService;

  constructor(options: KmsJsonOptions) {
    this.service = new SignedService('kms', options);
  }

  /** Calls `operation` with `body`; answers its JSON, or throws KmsError. */
  async call(operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const text = await this.service.post(
      { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `TrentService.${operation}` },
      JSON.stringify(body),
      kmsError,
    );
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  }
}
