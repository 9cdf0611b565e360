import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes/index.js';
import { rolesMatrix } from '../../shared/routes/roles-matrix.js';

describe('docs/roles.md', () => {
  it('shows the role matrix of the current route table', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'roles.md'), 'utf8');
    const inDoc = /<!-- roles-matrix:start -->\n([\s\S]*?)\n<!-- roles-matrix:end -->/.exec(doc)?.[1];
    expect(inDoc, 'regenerate with: npx tsx bin/roles-matrix.ts').toBe(rolesMatrix(ROUTES));
  });
});
