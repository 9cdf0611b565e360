/**
 * Anonymous reports. A tenant publishes a public reporting key, a random string that names no
 * internal id; a report finds its tenant through the key's hash. The reporter's address is used
 * for the per-IP limit and is never stored with the report (the audit entry records
 * `anonymous`), and the answer shows the reporter no internal id. A report opens a draft.
 */
import { asTenant } from '../../tenant-scope.js';
import { createHash, randomBytes } from 'node:crypto';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  currentPublicReportKeyHash,
  replacePublicReportKey,
  tenantOfPublicReportKeyHash,
} from '../../db/public-report-keys.js';
import { transactWrite } from '../../db/transact.js';
import { NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import type { Actor } from '../actor.js';
import { openIncident } from './incidents.js';
import { zonesAtInTenant } from '../sites/index.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { publicIncidentCreate } from '../../schemas/incidents.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Makes (or replaces) the tenant's public reporting key; shown this once. The old key stops working. */
export async function rotatePublicReportKey(
  actor: Actor,
  tenantId: TenantId,
): Promise<{ public_report_key: string; created_at: string }> {
  const key = `prk_${randomBytes(24).toString('base64url')}`;
  const hash = sha256(key);
  const at = now();
  const oldHash = await currentPublicReportKeyHash(tenantId);
  await transactWrite([
    ...replacePublicReportKey(tenantId, hash, oldHash, at),
    auditPut(
      auditEntry(actor, {
        tenantId,
        action: 'public_report_key.rotated',
        resourceType: 'public_report_key',
        resourceId: tenantId,
      }),
    ),
  ]);
  return { public_report_key: key, created_at: at };
}

/** The tenant whose current key this is. */
async function tenantOfKey(key: string): Promise<string | null> {
  return tenantOfPublicReportKeyHash(sha256(key));
}

export type PublicReport = InputOf<typeof publicIncidentCreate>;

/** What the reporter sees: a receipt, with no tenant or other internal id but the report's own. */
export interface PublicReceipt {
  incident_id: string;
  title: string;
  status: string;
  created_at: string;
}

export async function filePublicReport(actor: Actor, report: PublicReport): Promise<PublicReceipt> {
  // The schema takes the key under either name, one of them.
  const tenantId = await tenantOfKey((report.report_key ?? report.public_report_key)!);
  if (!tenantId) throw new NotFoundError('No organisation has this reporting key');
  // Everything after runs as the tenant the key names (docs/architecture.md, 27).
  return asTenant(tenantId, async () => {
    // The reporter stays anonymous: no principal, and no address kept with what is stored.
    const anonymous: Actor = { kind: 'anonymous', principal: null, requestId: actor.requestId, sourceIp: null };
    // The reporter names no site: the zones that hold the place reported say which it is.
    const place = report.location ? await zonesAtInTenant(systemTenant(tenantId), report.location) : null;
    const incident = await openIncident(
      anonymous,
      // The key names the tenant: the reporter has no other credential.
      systemTenant(tenantId),
      {
        title: report.title,
        description: report.contact ? `${report.description}\n\nContact: ${report.contact}` : report.description,
        location: report.location,
        location_text: report.location_text,
        occurred_at: report.occurred_at,
        status: 'draft',
        ...(place ? { environment_id: place.environmentId } : {}),
      },
      'public',
      place ? { location_zone_ids: place.zoneIds } : {},
    );
    return {
      incident_id: incident.incident_id,
      title: incident.title,
      status: incident.status,
      created_at: incident.created_at,
    };
  });
}
