/**
 * The tenant configuration: its fields, their defaults, and how a partial update merges in.
 * Field meanings are documented in the schema (shared/schemas/tenants.ts) and docs/configuration.
 */
import { invalid } from '../../errors.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { tenantConfigUpdate } from '../../schemas/tenants.js';

import type { TenantConfig } from '../../schemas/tenants.js';

export type { EscalationLevel, TenantConfig } from '../../schemas/tenants.js';
export type { IncidentSeverity as Severity } from '../../vocabulary/incidents.js';

export type TenantConfigUpdate = InputOf<typeof tenantConfigUpdate>;

export function defaultTenantConfig(tenantId: string, at: string): TenantConfig {
  return {
    tenant_id: tenantId,
    timezone: 'UTC',
    sla_minutes: { critical: 15, high: 60, medium: 240, low: 1440 },
    escalation_policy: {
      levels: [
        { after_minutes: 15, notify_roles: ['OPERATOR'], integration_ids: [] },
        { after_minutes: 30, notify_roles: ['TENANT_ADMIN'], integration_ids: [] },
        { after_minutes: 60, notify_roles: ['TENANT_ADMIN'], integration_ids: [] },
      ],
    },
    retention_days: { events: 90, incidents: 730, audit_logs: 400 },
    business_hours: { start: '08:00', end: '18:00', days: [1, 2, 3, 4, 5] },
    notifications: { min_severity: 'medium', email_recipients: [], acknowledgement_link_ttl_minutes: 60 },
    incident_threshold: 0.7,
    sensor_heartbeat_timeout_seconds: 300,
    updated_at: at,
  };
}

/** Whether `zone` names an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies a partial update: top-level fields given replace, nested objects merge key by key,
 * arrays replace whole. Checks what the schema cannot.
 */
export function mergeTenantConfig(current: TenantConfig, update: TenantConfigUpdate, at: string): TenantConfig {
  if (update.timezone !== undefined && !isTimeZone(update.timezone)) {
    throw invalid(['body', 'timezone'], 'must be an IANA time zone such as Europe/Oslo', 'timezone');
  }
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(update)) {
    const existing = merged[key];
    merged[key] = isPlainObject(value) && isPlainObject(existing) ? { ...existing, ...value } : value;
  }
  merged.updated_at = at;
  return merged as unknown as TenantConfig;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
