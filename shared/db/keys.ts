/**
 * The single table's keys: here the partitions' prefixes and the parts keys share, beside them
 * every item's key (shared/db/item-keys.ts; the vessels' in shared/db/vessels/keys.ts). Each
 * partition key of tenant data starts with `T#<tenant_id>`, so IAM (`dynamodb:LeadingKeys`) can
 * fence a tenant too. docs/data-model.md lists the access pattern behind each key.
 */

export const tenantPk = (tenantId: string) => `T#${tenantId}`;
/** Rate-limit counters' partitions start with this (`keys.rateWindow`); IAM fences them by it. */
export const RATE_PK_PREFIX = 'RATE#';

/** The partition of one fibre sensor's telemetry batches. */
export const telemetryPk = (tenantId: string, sensorId: string) => `${tenantPk(tenantId)}#TEL#${sensorId}`;
/** GSI4 partitions of the minutes in which tenants stored events (`keys.tenantEventMinute`), by hour. */
export const EVENT_MINUTES_PK_PREFIX = 'EVENTMINUTES#';
/** A store sequence number as a sort key: zero-padded, so the string order is the number order. */
export const sequenceKey = (seq: number) => String(seq).padStart(12, '0');
/** The partition of the SLA timers (`keys.slaTimer`). */
export const SLA_TIMERS_PK = 'SLATIMERS';
/** The partition of the workflows' timers (`keys.workflowTimer`). */
export const WORKFLOW_TIMERS_PK = 'WFTIMERS';
export const TENANT_DIRECTORY_PK = 'TENANTS';
export const USER_PREFIX = 'USER#';
export const API_KEY_PREFIX = 'APIKEY#';
