/**
 * The identity store: Amazon Cognito in AWS, cognito-local under `npm start` and the tests (same
 * API, pointed at by COGNITO_ENDPOINT). Accounts log in with their email as the username; the
 * tenant is an immutable custom attribute, so it is in every ID token Cognito signs.
 */
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  DescribeUserPoolCommand,
  InitiateAuthCommand,
  UserNotFoundException,
  UsernameExistsException,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../config.js';
import { TENANT_ATTRIBUTE } from '../vocabulary/identity.js';
import { sdkClient } from '../runtime-ports.js';
import { tracedClient } from '../tracing.js';

/** Exported for the local runtime's permission check (shared/local/iam-check.ts). */
export const client = sdkClient(
  tracedClient(
    new CognitoIdentityProviderClient({
      region: config.region,
      ...(config.endpoints.cognito ? { endpoint: config.endpoints.cognito } : {}),
    }),
  ),
  'cognito-idp',
);

/** cognito-local names some errors by `name` only, without the SDK's classes. */
const isNamed = (err: unknown, name: string) => err instanceof Error && err.name === name;

export interface Tokens {
  /** The ID token: it carries the tenant, and the API verifies it as the bearer credential. */
  idToken: string;
  expiresIn: number;
}

const LOGIN_REFUSED = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'InvalidPasswordException',
  'PasswordResetRequiredException',
  'UserNotConfirmedException',
]);

/** Logs in with email and password; null when they do not match an enabled account. */
export async function passwordLogin(email: string, password: string): Promise<Tokens | null> {
  try {
    const out = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: config.userPoolClientId,
        AuthParameters: { USERNAME: email.toLowerCase(), PASSWORD: password },
      }),
    );
    const result = out.AuthenticationResult;
    if (!result?.IdToken) return null; // a challenge (e.g. a new password) is not a login
    return { idToken: result.IdToken, expiresIn: result.ExpiresIn ?? 3600 };
  } catch (err) {
    // Cognito answers a wrong password with NotAuthorized; cognito-local with InvalidPassword.
    if (err instanceof Error && LOGIN_REFUSED.has(err.name)) return null;
    throw err;
  }
}

export interface Identity {
  userId: string;
  tenantId: string;
  email: string;
}

function attribute(attrs: AttributeType[] | undefined, name: string): string | undefined {
  return attrs?.find((a) => a.Name === name)?.Value;
}

export async function findIdentity(email: string): Promise<Identity | null> {
  try {
    const out = await client.send(
      new AdminGetUserCommand({ UserPoolId: config.userPoolId, Username: email.toLowerCase() }),
    );
    const userId = attribute(out.UserAttributes, 'sub');
    const tenantId = attribute(out.UserAttributes, TENANT_ATTRIBUTE);
    if (!userId || !tenantId) return null;
    return { userId, tenantId, email: email.toLowerCase() };
  } catch (err) {
    if (err instanceof UserNotFoundException || isNamed(err, 'UserNotFoundException')) {
      return null;
    }
    throw err;
  }
}

/** Thrown by createIdentity when the email has an account already. */
export class IdentityExistsError extends Error {
  constructor() {
    super('an account with this email exists');
  }
}

/** Thrown by createIdentity when the password does not meet the pool's policy. */
export class WeakPasswordError extends Error {}

/**
 * Creates an account for `email` in `tenantId`. With a password the account can log in at once;
 * without one it waits for an invitation flow. Sends no email: our API answers the caller. A
 * password the pool refuses leaves no account behind.
 */
export async function createIdentity(input: { email: string; tenantId: string; password?: string }): Promise<Identity> {
  const email = input.email.toLowerCase();
  let out;
  try {
    out = await client.send(
      new AdminCreateUserCommand({
        UserPoolId: config.userPoolId,
        Username: email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
          { Name: TENANT_ATTRIBUTE, Value: input.tenantId },
        ],
      }),
    );
  } catch (err) {
    if (err instanceof UsernameExistsException || isNamed(err, 'UsernameExistsException'))
      throw new IdentityExistsError();
    throw err;
  }
  const userId = attribute(out.User?.Attributes, 'sub');
  if (!userId) throw new Error('the identity store created a user without a sub');
  if (input.password) {
    try {
      await setIdentityPassword(email, input.password);
    } catch (err) {
      await deleteIdentity(email);
      throw err;
    }
  }
  return { userId, tenantId: input.tenantId, email };
}

/**
 * Sets an account's password for good: it can log in with it from now on. WeakPasswordError when
 * the pool's policy refuses it.
 */
export async function setIdentityPassword(email: string, password: string): Promise<void> {
  try {
    await client.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: config.userPoolId,
        Username: email.toLowerCase(),
        Password: password,
        Permanent: true,
      }),
    );
  } catch (err) {
    if (isNamed(err, 'InvalidPasswordException')) throw new WeakPasswordError((err as Error).message);
    throw err;
  }
}

/** Removes an account; an account already gone is fine. */
export async function deleteIdentity(email: string): Promise<void> {
  try {
    await client.send(new AdminDeleteUserCommand({ UserPoolId: config.userPoolId, Username: email.toLowerCase() }));
  } catch (err) {
    if (!isNamed(err, 'UserNotFoundException')) throw err;
  }
}

/** Disables or enables an account's logins (tokens it holds are refused by the API anyway). */
export async function setIdentityEnabled(email: string, enabled: boolean): Promise<void> {
  const input = { UserPoolId: config.userPoolId, Username: email.toLowerCase() };
  await client.send(enabled ? new AdminEnableUserCommand(input) : new AdminDisableUserCommand(input));
}

/** Whether the identity store answers; for /health. */
export async function pingIdentityStore(): Promise<void> {
  await client.send(new DescribeUserPoolCommand({ UserPoolId: config.userPoolId }));
}
