/** Who does something and from where (the type: shared/vocabulary/actor.ts), and the system as an actor. */
import type { Actor } from '../vocabulary/actor.js';

export type { Actor } from '../vocabulary/actor.js';

export const systemActor = (requestId: string): Actor => ({
  kind: 'system',
  principal: null,
  requestId,
  sourceIp: '127.0.0.1',
});
