/**
 * Secrets the service must read again (webhook signing secrets, integration credentials) are kept
 * sealed: encrypted with AWS KMS under the deployment's key (SECRETS_KEY_ID), bound to an
 * encryption context (the tenant and what the secret is for), so a sealed value copied to another
 * tenant's item does not open. The calls are KMS's JSON protocol (shared/kms-json.ts), not the KMS
 * client: 30 KB less in every function that seals or opens a secret. Under `npm start` a local key
 * stands in (shared/local/secret-box.ts).
 * One instance per process.
 */
import { config } from '../config.js';
import { KmsJson } from '../kms-json.js';
import { portOf, setPort } from '../runtime-ports.js';

/** What a secret is bound to: the tenant and its purpose, e.g. `{tenant_id, purpose: 'webhook:<id>'}`. */
export type SecretContext = Record<string, string>;

export interface SecretBox {
  seal(plain: string, context: SecretContext): Promise<string>;
  /** Throws when the value was sealed under another context or key, or was altered. */
  open(sealed: string, context: SecretContext): Promise<string>;
}

const KMS_PREFIX = 'kms:v1:';

export class KmsSecretBox implements SecretBox {
  constructor(
    private readonly kms: KmsJson,
    private readonly keyId: string,
  ) {}

  async seal(plain: string, context: SecretContext): Promise<string> {
    const out = await this.kms.call('Encrypt', {
      KeyId: this.keyId,
      Plaintext: Buffer.from(plain, 'utf8').toString('base64'),
      EncryptionContext: context,
    });
    if (typeof out.CiphertextBlob !== 'string') throw new Error('KMS Encrypt answered without a CiphertextBlob');
    return `${KMS_PREFIX}${out.CiphertextBlob}`;
  }

  /** KMS refuses a value sealed under another context or key, or altered (InvalidCiphertextException). */
  async open(sealed: string, context: SecretContext): Promise<string> {
    if (!sealed.startsWith(KMS_PREFIX)) throw new Error('not a value sealed with KMS');
    const out = await this.kms.call('Decrypt', {
      KeyId: this.keyId,
      CiphertextBlob: sealed.slice(KMS_PREFIX.length),
      EncryptionContext: context,
    });
    if (typeof out.Plaintext !== 'string') throw new Error('KMS Decrypt answered without a Plaintext');
    return Buffer.from(out.Plaintext, 'base64').toString('utf8');
  }
}

let kms: SecretBox | undefined;

/** Where the program is composed: the box to use instead of KMS (shared/runtime-ports.ts). */
export function useSecretBox(box: SecretBox): void {
  setPort('secretBox', box);
}

export function secretBox(): SecretBox {
  const composed = portOf<SecretBox>('secretBox');
  if (composed) return composed;
  if (!kms) {
    if (!config.secretsKeyId) throw new Error('SECRETS_KEY_ID is not set: no key to seal secrets with');
    kms = new KmsSecretBox(new KmsJson({ region: config.region }), config.secretsKeyId);
  }
  return kms;
}
