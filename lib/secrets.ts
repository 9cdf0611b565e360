/**
 * The key that seals the secrets the service must read again: webhook signing secrets and
 * integration credentials (shared/adapters/secret-box.ts). Customer managed, rotated yearly by
 * KMS; only the functions whose grants say `secrets` may encrypt or decrypt with it, each bound to
 * an encryption context naming the tenant and the secret's purpose.
 *
 * And the audit key, an HMAC_SHA_256 KMS key that seals every audit entry as it is written
 * (shared/db/audit/seal.ts): the functions that write audit entries may only make MACs with it
 * (kms:GenerateMac), the verify route only check them (kms:VerifyMac); its material never leaves
 * KMS, so whoever can edit the table cannot seal what they wrote.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface SecretsProps {
  /** Keep the key when the stack goes (sealed values stay readable after a redeploy). */
  readonly retain: boolean;
}

export class Secrets extends Construct {
  readonly key: kms.Key;
  readonly auditKey: kms.Key;

  constructor(scope: Construct, id: string, props: SecretsProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Gatehouse: seals webhook signing secrets and integration credentials',
      enableKeyRotation: true,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // Kept with the stack's data: without it no seal can be checked again. Not rotated: KMS rotates
    // only symmetric encryption keys.
    this.auditKey = new kms.Key(this, 'AuditKey', {
      description: 'Gatehouse: seals audit entries (HMAC), so an entry edited in the table is evident',
      keySpec: kms.KeySpec.HMAC_256,
      keyUsage: kms.KeyUsage.GENERATE_VERIFY_MAC,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }
}
