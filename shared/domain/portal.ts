/** The account portal: logging in. */
import { passwordLogin } from '../adapters/cognito.js';
import { UnauthorizedError } from '../http/errors.js';

export interface LoginResult {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/**
 * Exchanges email and password for a bearer token. A wrong password and an unknown email get the
 * same answer, so the answer does not tell whether an account exists.
 */
export async function login(email: string, password: string): Promise<LoginResult> {
  const tokens = await passwordLogin(email, password);
  if (!tokens) throw new UnauthorizedError('Incorrect email or password');
  return { access_token: tokens.idToken, token_type: 'bearer', expires_in: tokens.expiresIn };
}
