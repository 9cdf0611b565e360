/**
 * The key that seals the secrets the service must read again: webhook signing secrets and
 * integration credentials (shared/adapters/secret-box.ts). Customer managed, rotated yearly by
 * KMS; only the functions whose grants say `secrets` may encrypt or decrypt with it, each bound to
 * an encryption context naming the tenant and the secret's purpose.
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

  constructor(scope: Construct, id: string, props: SecretsProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Gatehouse: seals webhook signing secrets and integration credentials',
      enableKeyRotation: true,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }
}
