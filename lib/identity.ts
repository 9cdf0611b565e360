/**
 * The Cognito user pool behind `POST /api/v1/portal/login`. Users are created by the API
 * (register, user creation, the documented first-admin command), never by self sign-up, and
 * carry their tenant in an immutable attribute.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { PASSWORD_POLICY } from '../shared/vocabulary/password-policy.js';

export interface IdentityProps {
  readonly deletionProtection: boolean;
  /**
   * `plus` turns on Cognito threat protection (priced per active user, no free tier).
   * Default `essentials`; see the COG8 acknowledgement for why.
   */
  readonly featurePlan: 'essentials' | 'plus';
}

export class Identity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);
    const plus = props.featurePlan === 'plus';
    this.userPool = new cognito.UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: {
        // Set once at creation; a user can never move themselves to another tenant.
        tenant_id: new cognito.StringAttribute({ mutable: false, minLen: 1, maxLen: 64 }),
      },
      passwordPolicy: { ...PASSWORD_POLICY, tempPasswordValidity: Duration.days(3) },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      mfa: cognito.Mfa.OFF,
      featurePlan: plus ? cognito.FeaturePlan.PLUS : cognito.FeaturePlan.ESSENTIALS,
      ...(plus ? { standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION } : {}),
      deletionProtection: props.deletionProtection,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'The contract fixes login as email + password answered with a bearer token in one call ' +
        '(POST /api/v1/portal/login); an MFA challenge step is not part of it. Revisit with the identity issue.',
    });
    if (!plus) {
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'Threat protection (Plus plan) judges sign-ins by client IP and device, but every sign-in here ' +
          'comes from the login Lambda (USER_PASSWORD_AUTH, client without secret, so no user context ' +
          'propagation): it would score Lambda addresses. Deploy with -c userPoolFeaturePlan=plus once ' +
          'login forwards UserContextData.',
      });
    }

    this.client = this.userPool.addClient('ApiClient', {
      // The API calls InitiateAuth server-side; a public client keeps it to the pool id and
      // client id, no secret to distribute.
      generateSecret: false,
      authFlows: { userPassword: true },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });
  }
}
