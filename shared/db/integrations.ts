/**
 * Integrations in the single table, in the tenant's partition (`T#tid`, `INTEGRATION#<v7>`), at
 * most 50 a tenant (shared/db/counted-items.ts). Their configuration (addresses that are
 * credentials, keys, signing secrets, the credentials of a URL) is kept sealed as one value
 * (shared/adapters/secret-box.ts); the item keeps only where it points, its credentials `REDACTED`
 * (shared/url-secrets.ts), and a hint of the credential, for display.
 */
import type { IntegrationKind } from '../schemas/integrations.js';
import type { ConnectorSettings } from './connectors.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { deleteCounted, getCounted, listCounted, putNewCounted, type CountedKind } from './counted-items.js';
import { pick, versionedUpdate } from './items.js';
import * as keys from './item-keys.js';
import type { PageRequest } from './query.js';
import { readItems, type Prefetched } from './read-batch.js';
import type { TransactItem } from './transact.js';

export interface Integration {
  integration_id: string;
  tenant_id: TenantId;
  name: string;
  kind: IntegrationKind;
  enabled: boolean;
  endpoint: string;
  credential_hint: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredIntegration extends Integration {
  config_sealed: string;
  version: number;
  /** A `feed` integration's settings and directory entry (shared/db/connectors.ts). */
  connector?: ConnectorSettings;
  GSI1PK?: string;
  GSI1SK?: string;
}

const KIND: CountedKind = {
  entity: 'INTEGRATION',
  prefix: 'INTEGRATION#',
  item: keys.integration,
  count: keys.integrationCount,
  limit: 50,
};

export const MAX_INTEGRATIONS_PER_TENANT = KIND.limit;

/** What an integration shows: an allowlist, so the sealed configuration (or a later field) is never answered. */
const PUBLIC_FIELDS = [
  'integration_id',
  'tenant_id',
  'name',
  'kind',
  'enabled',
  'endpoint',
  'credential_hint',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Integration)[];

/** What an integration's sealed configuration is bound to: its tenant and the integration. */
export const integrationSecretContext = (tenantId: string, integrationId: string): Record<string, string> => ({
  tenant_id: tenantId,
  purpose: `integration:${integrationId}`,
});

const fromItem = (item: Record<string, unknown>): StoredIntegration => item as unknown as StoredIntegration;

export function publicIntegration(i: Integration | StoredIntegration): Integration {
  return pick<Integration>({ ...i }, PUBLIC_FIELDS);
}

export function putNewIntegration(i: Omit<StoredIntegration, 'version'>): TransactItem[] {
  return putNewCounted(KIND, i.tenant_id, i.integration_id, { ...i });
}

export async function getIntegration(tenantId: TenantId, integrationId: string): Promise<StoredIntegration | null> {
  const item = await getCounted(KIND, tenantId, integrationId);
  return item ? fromItem(item) : null;
}

/** Those of `integrationIds` the tenant has, by id, in one round trip (BatchGetItem). */
export async function getIntegrations(
  tenantId: TenantId,
  integrationIds: readonly string[],
): Promise<Map<string, StoredIntegration>> {
  const read = await readItems(integrationIds.map((id) => keys.integration(tenantId, id)));
  return integrationsFrom(read, tenantId, integrationIds);
}

/** The integrations among items read in one batch, by id; ids without one are absent. */
export function integrationsFrom(
  read: Prefetched,
  tenantId: TenantId,
  integrationIds: readonly string[],
): Map<string, StoredIntegration> {
  const found = new Map<string, StoredIntegration>();
  for (const id of integrationIds) {
    const item = read.get(keys.integration(tenantId, id));
    if (item) found.set(id, fromItem(item));
  }
  return found;
}

export async function listIntegrations(tenantId: TenantId, page: PageRequest): Promise<StoredIntegration[]> {
  return (await listCounted(KIND, tenantId, page)).items.map(fromItem);
}

export function updateIntegration(next: StoredIntegration, fields: (keyof StoredIntegration)[]): TransactItem {
  const changed = Object.fromEntries(fields.map((f) => [f, next[f]]));
  return versionedUpdate(
    keys.integration(next.tenant_id, next.integration_id),
    { ...changed, updated_at: next.updated_at },
    next.version,
  );
}

export function deleteIntegrationItems(i: StoredIntegration): TransactItem[] {
  return deleteCounted(KIND, i.tenant_id, i.integration_id, i.version);
}
