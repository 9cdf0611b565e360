/** Who is calling, as established from a verified credential (the type: shared/vocabulary/actor.ts). */
export type { Principal } from '../vocabulary/actor.js';
export { roleSatisfies } from '../vocabulary/roles.js';
