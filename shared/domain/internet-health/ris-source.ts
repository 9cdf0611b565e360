/**
 * Where a RIS Live connector's updates are kept: a source of its own (`ris-live@<hash>`, pattern
 * 50 of docs/data-model.md), since what it reads is narrowed to its tenant's watched prefixes.
 * The hash is of the tenant and the connector, so no two connectors share one and the ids give
 * nothing away.
 */
import { createHash } from 'node:crypto';
import type { TenantId } from '../../vocabulary/tenant.js';

export const risSource = (tenantId: TenantId, connectorId: string) =>
  `ris-live@${createHash('sha256').update(`${tenantId}/${connectorId}`).digest('hex').slice(0, 16)}`;
