import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../shared/http/errors.js';
import { defaultTenantConfig, isTimeZone, mergeTenantConfig } from '../../shared/domain/accounts/tenant-config.js';

const base = defaultTenantConfig('t1', '2026-01-01T00:00:00.000Z');

describe('tenant configuration updates', () => {
  it('changes only the fields given, merging nested objects key by key', () => {
    const next = mergeTenantConfig(
      base,
      { sla_minutes: { critical: 5 }, incident_threshold: 0.9 },
      '2026-01-02T00:00:00.000Z',
    );
    expect(next.sla_minutes).toEqual({ ...base.sla_minutes, critical: 5 });
    expect(next.incident_threshold).toBe(0.9);
    expect(next.timezone).toBe(base.timezone);
    expect(next.updated_at).toBe('2026-01-02T00:00:00.000Z');
  });

  it('replaces arrays whole', () => {
    const next = mergeTenantConfig(
      base,
      { escalation_policy: { levels: [{ after_minutes: 1, notify_roles: ['OPERATOR'] }] } },
      'x',
    );
    expect(next.escalation_policy.levels).toHaveLength(1);
  });

  it('refuses a time zone that does not exist, naming the field', () => {
    expect(() => mergeTenantConfig(base, { timezone: 'Mars/Olympus' }, 'x')).toThrow(RequestValidationError);
    try {
      mergeTenantConfig(base, { timezone: 'Mars/Olympus' }, 'x');
    } catch (err) {
      expect((err as RequestValidationError).issues[0]!.loc).toEqual(['body', 'timezone']);
    }
  });

  it('knows IANA zones', () => {
    expect(isTimeZone('Europe/Oslo')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Nowhere/Land')).toBe(false);
  });

  it('does not alter the configuration it was given', () => {
    const copy = structuredClone(base);
    mergeTenantConfig(base, { sla_minutes: { low: 1 } }, 'x');
    expect(base).toEqual(copy);
  });
});
