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
  /** Audit entries live in their own partition per tenant, sorted by their time-ordered id. */
  audit: (tenantId: string, logId: string) => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SK: logId }),
} as const;

export const TENANT_DIRECTORY_PK = 'TENANTS';
