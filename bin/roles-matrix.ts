/** Prints the role matrix for docs/roles.md: `npx tsx bin/roles-matrix.ts`. */
import { ROUTES } from '../shared/routes/index.js';
import { rolesMatrix } from '../shared/routes/roles-matrix.js';

console.log(rolesMatrix(ROUTES));
