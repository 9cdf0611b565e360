import { describe, expect, it } from 'vitest';
import { roleSatisfies } from '../../shared/auth/principal.js';

describe('roles', () => {
  it('a higher role includes the lower ones', () => {
    expect(roleSatisfies('SUPER_ADMIN', 'VIEWER')).toBe(true);
    expect(roleSatisfies('TENANT_ADMIN', 'OPERATOR')).toBe(true);
    expect(roleSatisfies('OPERATOR', 'OPERATOR')).toBe(true);
  });

  it('a lower role does not reach a higher one', () => {
    expect(roleSatisfies('TENANT_ADMIN', 'SUPER_ADMIN')).toBe(false);
    expect(roleSatisfies('VIEWER', 'OPERATOR')).toBe(false);
  });

  it('anyone reaches a public route', () => {
    expect(roleSatisfies('VIEWER', 'public')).toBe(true);
  });
});
