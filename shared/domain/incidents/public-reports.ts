/**
 * Anonymous reports. A tenant publishes a public reporting key (never an internal id); a report
 * names the tenant only through it. The reporter's address is used for the per-IP limit and is
 * never stored with the report (the audit entry records `anonymous`). A report opens a draft for
 * operators to confirm.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tenantScope } from '../../auth/tenant-scope.js';
import { auditEntry, auditPut } from '../../db/audit.js';
import { db, TABLE } from '../../db/client.js';
import { keys } from '../../db/keys.js';
import { transactWrite } from '../../db/transact.js';
import { NotFoundError } from '../../http/errors.js';
import { now } from '../../ids.js';
import type { Actor } from '../actor.js';
import { openIncident, type IncidentView } from './incidents.js';

const KEY_PATTERN = /^prk_([0-9a-f]{32})([A-Za-z0-9_-]{22})$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Makes (or replaces) the tenant's public reporting key; shown this once. */
export async function rotatePublicReportKey(actor: Actor): Promise<{ public_report_key: string; created_at: string }> {
  if (!actor.principal) throw new Error('rotating the key needs an authenticated caller');
  const tenantId = await tenantScope(actor.principal, undefined);
  const key = `prk_${tenantId.replace(/-/g, '')}${randomBytes(16).toString('base64url')}`;
  const at = now();
  await transactWrite([
    { Put: { TableName: TABLE, Item: { ...keys.publicReportKey(tenantId), entity: 'PUBLIC_REPORT_KEY', key_hash: sha256(key), created_at: at } } },
    auditPut(auditEntry(actor, { tenantId, action: 'public_report_key.rotated', resourceType: 'public_report_key', resourceId: tenantId })),
  ]);
  return { public_report_key: key, created_at: at };
}

/** The tenant a key names, if it is that tenant's current key. */
async function tenantOfKey(key: string): Promise<string | null> {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const h = match[1]!;
  const tenantId = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: keys.publicReportKey(tenantId), ConsistentRead: true }));
  const stored = out.Item?.key_hash as string | undefined;
  if (!stored) return null;
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(sha256(key), 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? tenantId : null;
}

export interface PublicReport {
  report_key: string;
  title: string;
  description: string;
  location?: { lat: number; lon: number };
  location_text?: string;
  occurred_at?: string;
  contact?: string;
}

export async function filePublicReport(actor: Actor, report: PublicReport): Promise<IncidentView> {
  const tenantId = await tenantOfKey(report.report_key);
  if (!tenantId) throw new NotFoundError('No organisation has this reporting key');
  // The reporter stays anonymous: no principal, and no address kept with what is stored.
  const anonymous: Actor = { principal: null, requestId: actor.requestId, sourceIp: 'anonymous' };
  return openIncident(
    anonymous,
    {
      title: report.title,
      description: report.contact ? `${report.description}\n\nContact: ${report.contact}` : report.description,
      location: report.location,
      location_text: report.location_text,
      occurred_at: report.occurred_at,
      status: 'draft',
    },
    'public',
    { tenant_id: tenantId },
  );
}
