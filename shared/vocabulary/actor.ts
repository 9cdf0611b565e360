/** Who is calling, and who does something: the words every layer uses for it. */
import type { Role } from './roles.js';

/** A caller as established from a verified credential (shared/auth/authenticate.ts). */
export interface Principal {
  userId: string;
  /** The caller's own tenant: the only source of tenant context. */
  tenantId: string;
  role: Role;
  email?: string;
  via: 'jwt' | 'api_key';
  /** The key used, when `via` is `api_key`. */
  apiKeyId?: string;
  /** Calls per minute the caller's tenant may make (its plan); null for no limit. */
  requestsPerMinute: number | null;
}

/**
 * Who does something and from where: what every mutation needs for its audit entry. Built by the
 * handler chain from the verified credential; domain code never sees a Lambda event.
 */
export interface Actor {
  /** Null for public routes (login, anonymous reports) and for system work (bootstrap). */
  principal: Principal | null;
  requestId: string;
  sourceIp: string;
}
