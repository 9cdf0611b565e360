/**
 * Reading integrations (docs/webhooks.md, integrations): one by id, a page of them. Kept apart from
 * the writes and the senders (shared/domain/integrations/writes.ts) so the read routes carry neither.
 */
import {
  getIntegration,
  listIntegrations as listStored,
  publicIntegration,
  type Integration,
  type StoredIntegration,
} from '../../db/integrations.js';
import type { PageRequest } from '../../db/query.js';
import { NotFoundError } from '../../errors.js';
import { INTEGRATION_NOT_FOUND } from '../../vocabulary/integrations.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export async function findStoredIntegration(tenantId: TenantId, integrationId: string): Promise<StoredIntegration> {
  const stored = await getIntegration(tenantId, integrationId);
  if (!stored) throw new NotFoundError(INTEGRATION_NOT_FOUND);
  return stored;
}

export async function findIntegration(tenantId: TenantId, integrationId: string): Promise<Integration> {
  return publicIntegration(await findStoredIntegration(tenantId, integrationId));
}

export async function listIntegrations(tenantId: TenantId, page: PageRequest): Promise<Integration[]> {
  return (await listStored(tenantId, page)).map(publicIntegration);
}
