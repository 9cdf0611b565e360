/**
 * The credential provider of the deployed bundles, in place of `@aws-sdk/credential-provider-node`
 * (esbuild's `alias` in lib/function-bundles.ts). Lambda hands a function its role's credentials
 * in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), the first
 * link of the SDK's default chain; the rest of the chain (SSO, profiles, processes, web identity,
 * container and instance metadata, with the STS and SSO clients they carry) never runs there, yet
 * was 96 KB of every bundle (16.6 MB over the stack) and a quarter of the synth's esbuild work.
 *
 * Sources run under tsx (`npm start`, the tests) keep the whole chain; the bundles served by
 * `GATEHOUSE_HANDLERS=bundles` run with this one and the local stack's environment credentials.
 * The exports are the package's, with its semantics.
 */
import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/** The environment's credentials; fails with the SDK's CredentialsProviderError when they are missing. */
export const defaultProvider = (init: FromEnvInit = {}): AwsCredentialIdentityProvider => fromEnv(init);

export const credentialsWillNeedRefresh = (credentials: AwsCredentialIdentity): boolean =>
  credentials.expiration !== undefined;

export const credentialsTreatedAsExpired = (credentials: AwsCredentialIdentity): boolean =>
  credentials.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
