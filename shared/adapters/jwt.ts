/**
 * Verifies bearer JWTs signed by the user pool with aws-jwt-verify. The verifier and its JWKS
 * cache live at module scope: keys are fetched once per container and again only on an unknown
 * `kid`. The JWKS is fetched with `fetch`, which also reaches cognito-local over plain http.
 */
// The verifier's own module: the package's index also holds the Cognito and ALB verifiers (2.5 KB), never used.
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { config } from '../config.js';
import { ServiceUnavailableError } from '../errors.js';
import { TENANT_ATTRIBUTE } from '../vocabulary/identity.js';

/** The identity provider's keys could not be had: no token can be judged, valid or not (503, not 401). */
export class IdentityUnavailableError extends ServiceUnavailableError {
  constructor(detail: string) {
    super(`The identity provider cannot be reached (${detail}); try again shortly`);
  }
}

const jwksCache = new SimpleJwksCache({
  fetcher: {
    fetch: async (uri: string) => {
      let res: Response;
      try {
        res = await fetch(uri, { signal: AbortSignal.timeout(3000) });
      } catch (err) {
        throw new IdentityUnavailableError((err as Error).name);
      }
      if (!res.ok) throw new IdentityUnavailableError(`keys answered ${res.status}`);
      return res.arrayBuffer();
    },
  },
});

const verifier = JwtVerifier.create(
  {
    issuer: config.jwtIssuer,
    audience: config.userPoolClientId,
    jwksUri: config.jwksUri,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== 'id') throw new Error('not an ID token');
      if (typeof payload[TENANT_ATTRIBUTE] !== 'string') throw new Error('token carries no tenant');
    },
  },
  { jwksCache },
);

export interface TokenClaims {
  userId: string;
  tenantId: string;
  email?: string;
}

/** The claims of a valid token; throws for anything else (bad signature, expired, alg none, ...). */
export async function verifyBearer(token: string): Promise<TokenClaims> {
  const payload = await verifier.verify(token);
  return {
    userId: String(payload.sub),
    tenantId: payload[TENANT_ATTRIBUTE] as string, // customJwtCheck refused anything else
    email: typeof payload.email === 'string' ? payload.email : undefined,
  };
}
