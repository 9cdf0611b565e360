/**
 * The local stand-in for the audit key (an HMAC_SHA_256 KMS key in AWS, shared/db/audit/seal.ts):
 * HMAC-SHA-256 under a key file of the data directory (made at the first start, mode 0600), kept
 * outside the table as the secret box's key is, so editing the table gives no way to make a MAC.
 * The calling function's grants are checked as KMS would check its IAM policy. It counts its
 * calls, for the request-cost benchmark (bin/bench-audit-seal.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AuditMac } from '../db/audit/index.js';
import { checkAction } from './iam-check.js';
import { localSecretKey } from './secret-box.js';

export class LocalAuditMac implements AuditMac {
  readonly calls = { generate: 0, verify: 0 };
  private key: Buffer | undefined;

  /** `keyFile`: the file, or a function naming it when first needed (the test processes learn it late). */
  constructor(private readonly keyFile: string | (() => string | undefined)) {}

  private mac(message: Uint8Array): Buffer {
    if (!this.key) {
      const file = typeof this.keyFile === 'string' ? this.keyFile : this.keyFile();
      if (!file) throw new Error('LOCAL_AUDIT_KEY_FILE is not set: no local key to seal audit entries with');
      this.key = localSecretKey(file);
    }
    return createHmac('sha256', this.key).update(message).digest();
  }

  async generate(message: Uint8Array): Promise<Uint8Array> {
    checkAction('kms:GenerateMac');
    this.calls.generate++;
    return this.mac(message);
  }

  async verify(message: Uint8Array, mac: Uint8Array): Promise<boolean> {
    checkAction('kms:VerifyMac');
    this.calls.verify++;
    const expected = this.mac(message);
    return mac.length === expected.length && timingSafeEqual(expected, mac);
  }
}
