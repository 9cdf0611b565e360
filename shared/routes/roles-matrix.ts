/** The role matrix of docs/roles.md, generated from the route table so the doc cannot drift. */
import { ROLES, roleSatisfies } from '../vocabulary/roles.js';
import type { RouteDef } from './types.js';

export function rolesMatrix(routes: readonly RouteDef[]): string {
  const header = `| Route | ${ROLES.join(' | ')} |`;
  const rule = `|---|${ROLES.map(() => ':-:').join('|')}|`;
  const rows = routes.map((route) => {
    const cells = ROLES.map((role) => {
      if (route.access === 'public') return 'public';
      if (!roleSatisfies(role, route.access)) return '-';
      return route.bearerOnly ? 'yes (token)' : 'yes';
    });
    return `| \`${route.method} ${route.path}\` | ${cells.join(' | ')} |`;
  });
  return [header, rule, ...rows].join('\n');
}
