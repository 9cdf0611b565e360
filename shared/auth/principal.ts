/** Who is calling, as established from a verified credential. */
import { ROLES, type Access, type Role } from '../routes/types.js';

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

/** Whether `role` meets `least`: a higher role includes every lower one. */
export function roleSatisfies(role: Role, least: Access): boolean {
  if (least === 'public') return true;
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}
