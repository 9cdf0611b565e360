/**
 * The audit key's MAC calls, GenerateMac and VerifyMac, made with KMS's JSON protocol
 * (shared/kms-json.ts). Only a function that seals or verifies audit entries reaches this module:
 * the bundle-budget test reads each bundle's metafile for it, and checks the function holds the
 * grant (`grants.audit`) and no other does.
 */
import type { KmsJson } from '../../kms-json.js';

/** Makes and checks MACs under the audit key. */
export interface AuditMac {
  generate(message: Uint8Array): Promise<Uint8Array>;
  /** False when the MAC is not the key's MAC of the message. */
  verify(message: Uint8Array, mac: Uint8Array): Promise<boolean>;
}

export class KmsAuditMac implements AuditMac {
  constructor(
    private readonly kms: KmsJson,
    private readonly keyId: string,
  ) {}

  async generate(message: Uint8Array): Promise<Uint8Array> {
    const out = await this.kms.call('GenerateMac', {
      KeyId: this.keyId,
      MacAlgorithm: 'HMAC_SHA_256',
      Message: Buffer.from(message).toString('base64'),
    });
    if (typeof out.Mac !== 'string') throw new Error('KMS GenerateMac answered without a Mac');
    return Buffer.from(out.Mac, 'base64');
  }

  async verify(message: Uint8Array, mac: Uint8Array): Promise<boolean> {
    try {
      const out = await this.kms.call('VerifyMac', {
        KeyId: this.keyId,
        MacAlgorithm: 'HMAC_SHA_256',
        Message: Buffer.from(message).toString('base64'),
        Mac: Buffer.from(mac).toString('base64'),
      });
      return out.MacValid === true;
    } catch (err) {
      // KMS answers a MAC that is not the key's MAC of the message with this error, not MacValid: false.
      if ((err as Error).name === 'KMSInvalidMacException') return false;
      throw err;
    }
  }
}
