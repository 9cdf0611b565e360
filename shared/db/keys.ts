/**
 * Every key of the single table, in one place. Each partition key of tenant data starts with
 * `T#<tenant_id>`, so IAM (`dynamodb:LeadingKeys`) can fence a tenant too. docs/data-model.md
 * lists the access pattern behind each key.
 */

export const tenantPk = (tenantId: string) => `T#${tenantId}`;

export const keys = {
  tenant: (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'TENANT' }),
  /** GSI1: the tenant directory, oldest first, for SUPER_ADMIN listings. */
  tenantDirectory: (createdAt: string, tenantId: string) => ({
    GSI1PK: 'TENANTS',
    GSI1SK: `${createdAt}#${tenantId}`,
  }),
  tenantConfig: (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'CONFIG' }),
  user: (tenantId: string, userId: string) => ({ PK: tenantPk(tenantId), SK: `USER#${userId}` }),
  /** GSI1: a tenant's users, oldest first. */
  userDirectory: (tenantId: string, createdAt: string, userId: string) => ({
    GSI1PK: `${tenantPk(tenantId)}#USERS`,
    GSI1SK: `${createdAt}#${userId}`,
  }),
  /** A user's API key, by key id; the key itself names its tenant and id. */
  apiKey: (tenantId: string, keyId: string) => ({ PK: tenantPk(tenantId), SK: `APIKEY#${keyId}` }),
  /**
   * A fixed-window counter of an anonymous caller (by IP). Not tenant data: the caller has no
   * tenant yet. Expires with TTL.
   */
  rateWindow: (name: string, caller: string, windowStart: number) => ({ PK: `RATE#${name}#${caller}`, SK: String(windowStart) }),
  /** Audit entries live in their own partition per tenant, sorted by their time-ordered id. */
  audit: (tenantId: string, logId: string) => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SK: logId }),
} as const;

export const TENANT_DIRECTORY_PK = 'TENANTS';
export const USER_PREFIX = 'USER#';
export const API_KEY_PREFIX = 'APIKEY#';
