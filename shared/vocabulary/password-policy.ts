/**
 * The password policy of the user pool, in one place: the CDK stack and the local pool are
 * created with it, and the API checks it before asking the identity store, so a weak password
 * gets the same 422 in AWS and under `npm start` (cognito-local does not enforce policies).
 */
export const PASSWORD_POLICY = {
  minLength: 12,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

export const PASSWORD_RULES =
  'at least 12 characters, with an upper-case letter, a lower-case letter, a digit and a symbol';

/** Whether `password` meets the policy. */
export function meetsPasswordPolicy(password: string): boolean {
  return (
    password.length >= PASSWORD_POLICY.minLength &&
    /[a-z]/.test(password) &&
    /[A-Z]/.test(password) &&
    /\d/.test(password) &&
    /[^A-Za-z0-9]/.test(password)
  );
}
