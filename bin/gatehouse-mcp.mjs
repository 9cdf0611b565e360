#!/usr/bin/env node
// `npx gatehouse-mcp`: runs bin/mcp.ts through tsx, as the repository runs its TypeScript (Node's
// own type stripping does not map the sources' `.js` import specifiers to their `.ts` files).
import { register } from 'tsx/esm/api';

register();
await import('./mcp.ts');
