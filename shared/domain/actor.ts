/**
 * Who does something and from where: what every mutation needs for its audit entry. Built by the
 * handler chain from the verified credential; domain code never sees a Lambda event.
 */
import type { Principal } from '../auth/principal.js';

export interface Actor {
  /** Null for public routes (login, anonymous reports) and for system work (bootstrap). */
  principal: Principal | null;
  requestId: string;
  sourceIp: string;
}

export const systemActor = (requestId: string): Actor => ({ principal: null, requestId, sourceIp: '127.0.0.1' });
