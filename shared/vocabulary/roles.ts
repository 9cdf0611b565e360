/** Who may do what: the roles, in order, and the least role a route needs. */

export const ROLES = ['VIEWER', 'OPERATOR', 'TENANT_ADMIN', 'SUPER_ADMIN'] as const;
/** A role; later entries include every earlier one. */
export type Role = (typeof ROLES)[number];

/** The least role a route needs, or `public` for the routes the contract lists as open. */
export type Access = Role | 'public';

/** Whether `role` meets `least`: a higher role includes every lower one. */
export function roleSatisfies(role: Role, least: Access): boolean {
  if (least === 'public') return true;
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}
