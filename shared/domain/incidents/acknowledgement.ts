/**
 * Acknowledgement by link, without a credential: the link's token names its tenant, opens only its
 * own incident, works once and expires. Programs POST it; a person opens it (GET) and sees what it
 * is for before a button acknowledges, because mail scanners open links too: reading a link never
 * changes anything.
 */
import {
  getAckToken,
  getAckTokenAndIncident,
  linkedPlace,
  getIncident,
  useAckToken,
  type StoredAckToken,
} from '../../db/incidents.js';
import type { Incident } from '../../db/incidents.js';
import { ConditionFailed } from '../../db/transact.js';
import { ConflictError, ForbiddenError } from '../../errors.js';
import type { IncidentSeverity, IncidentStatus } from '../../vocabulary/incidents.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { hashToken, linkState, tenantOfLinkToken, type StoredToken } from './ack-token.js';
import { change, type IncidentView } from './incidents.js';
import { canTransition } from './lifecycle.js';
import { asTenant } from '../../tenant-scope.js';

const REFUSED = 'This acknowledgement link is not valid: it may have been used already or have expired';

/** The tenant a link's token names (`ack_<tenant id hex><secret>`) and its stored hash; null for a malformed token. */
function parseLink(token: string): { tenantId: TenantId; hash: string } | null {
  const tenant = tenantOfLinkToken(token);
  // The token names its tenant; the token itself is the credential.
  return tenant ? { tenantId: systemTenant(tenant), hash: hashToken(token) } : null;
}

const storedToken = (t: StoredAckToken | null): StoredToken | null =>
  t && { hash: t.token_hash, incidentId: t.incident_id, expiresAt: t.expires_at_iso, usedAt: t.used_at ?? null };

/** A bad, used or expired token is 403 and changes nothing. */
export async function acknowledge(actor: Actor, incidentId: string, token: string): Promise<IncidentView> {
  const link = parseLink(token);
  if (!link) throw new ForbiddenError(REFUSED);
  // As the tenant the token names (docs/architecture.md, 27).
  return asTenant(link.tenantId, () => acknowledgeAs(actor, incidentId, token, link));
}

async function acknowledgeAs(
  actor: Actor,
  incidentId: string,
  token: string,
  { tenantId, hash }: { tenantId: TenantId; hash: string },
): Promise<IncidentView> {
  const stored = await getAckToken(tenantId, incidentId, hash);
  if (!stored || linkState(storedToken(stored), token, incidentId, Date.now()) !== 'valid')
    throw new ForbiddenError(REFUSED);
  try {
    return await change(
      actor,
      tenantId,
      incidentId,
      (current, at) => {
        if (!canTransition(current.status, 'acknowledged') && current.status !== 'acknowledged') {
          throw new ConflictError(`A ${current.status} incident cannot be acknowledged`);
        }
        const history = [
          ...current.history,
          { at, kind: 'acknowledged', by: 'token', detail: { addressed_to: stored.addressed_to } },
        ];
        const next: Incident = { ...current, history };
        if (current.status !== 'acknowledged') {
          history.push({ at, kind: 'status', by: 'token', detail: { from: current.status, to: 'acknowledged' } });
          next.status = 'acknowledged';
        }
        return {
          next,
          fields: ['status'],
          action: 'incident.acknowledged',
          changes: { status: { from: current.status, to: next.status }, addressed_to: stored.addressed_to },
          extra: [useAckToken(tenantId, incidentId, hash, at)],
        };
      },
      async () => {
        const incident = await getIncident(tenantId, incidentId);
        if (!incident) throw new ForbiddenError(REFUSED);
        return incident;
      },
    );
  } catch (err) {
    // The token was used by a concurrent click between our read and our write.
    if (err instanceof ConditionFailed) throw new ForbiddenError(REFUSED);
    throw err;
  }
}

/** What the link's page shows of its incident. */
export interface LinkIncident {
  title: string;
  severity: IncidentSeverity;
  status: IncidentStatus;
  location_text: string | null;
  location: { lat: number; lon: number } | null;
  /** The location is its first linked event's (the incident has none of its own). */
  location_from_event: boolean;
  /** Names of the zones it is in (the first few). */
  zones: string[];
  /** When the incident was raised. */
  created_at: string;
  occurred_at: string | null;
}

/**
 * What a link is now, for its page:
 * - `open`: it can acknowledge its incident (a button does, by POST);
 * - `used`: it acknowledged its incident, at `used_at`;
 * - `settled`: it is valid, but its incident is past acknowledging (acknowledged by someone else,
 *   in progress, resolved, ...): the status says where it is;
 * - `expired`: it matched, but too late; it shows nothing of the incident any more;
 * - `invalid`: no such link (wrong token, another incident's): nothing more is said.
 */
export type LinkView =
  | { state: 'open'; incident: LinkIncident; expires_at: string }
  | { state: 'used'; incident: LinkIncident; used_at: string }
  | { state: 'settled'; incident: LinkIncident }
  | { state: 'expired'; expired_at: string }
  | { state: 'invalid' };

/**
 * Reads a link and its incident (one round trip; a second for an incident in zones or told no
 * place: its zones' names and its first located event) and changes nothing.
 */
export async function acknowledgementLink(incidentId: string, token: string): Promise<LinkView> {
  const link = parseLink(token);
  if (!link) return { state: 'invalid' };
  return asTenant(link.tenantId, () => linkOf(incidentId, token, link));
}

async function linkOf(
  incidentId: string,
  token: string,
  link: { tenantId: TenantId; hash: string },
): Promise<LinkView> {
  const read = await getAckTokenAndIncident(link.tenantId, incidentId, link.hash);
  const state = linkState(storedToken(read.token), token, incidentId, Date.now());
  if (state === 'invalid' || !read.token || !read.incident) return { state: 'invalid' };
  if (state === 'expired') return { state: 'expired', expired_at: read.token.expires_at_iso };
  const i = read.incident;
  // Zones and a linked event's location say where it is when it was not told (one more read).
  const linked =
    i.zone_ids.length > 0 || (!i.location_text && !i.location)
      ? await linkedPlace(link.tenantId, i.zone_ids, i.location_text || i.location ? [] : i.event_ids)
      : { zoneNames: [], eventLocation: null };
  const incident: LinkIncident = {
    title: i.title,
    severity: i.severity,
    status: i.status,
    location_text: i.location_text,
    location: i.location ?? linked.eventLocation,
    location_from_event: !i.location && linked.eventLocation !== null,
    zones: linked.zoneNames,
    created_at: i.created_at,
    occurred_at: i.occurred_at,
  };
  if (state === 'used') return { state: 'used', incident, used_at: read.token.used_at! };
  if (!canTransition(i.status, 'acknowledged')) return { state: 'settled', incident };
  return { state: 'open', incident, expires_at: read.token.expires_at_iso };
}
