/**
 * Drone dispatch (docs/drones.md). An OPERATOR sends a drone to an incident through a `drone`
 * integration (a dock or fleet API): the command, `{type: "drone.dispatch", timestamp, data}`, is
 * signed per Standard Webhooks with the integration's secret and POSTed through the outbound guard,
 * once per incident and task. The dock reports back by POSTing signed `drone.status` callbacks to
 * the callback address the command names; each one taken becomes an entry of kind `drone` on the
 * incident's timeline (and an `incident.updated` announcement), once per `webhook-id`.
 *
 * The command is sent within the request, bounded (8 s): the dispatch is written first (`pending`),
 * then sent, then its outcome recorded. A command the dock did not take (`failed`, or `pending` left
 * by a request that ended midway) is sent again, under the same `webhook-id`, by the next dispatch
 * of the same task: the caller retries, not a worker.
 */
import { asTenant } from '../../tenant-scope.js';
import { Webhook } from 'standardwebhooks';
import { postOutbound } from '../../adapters/outbound-http.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  listDispatches,
  putCallbackSeen,
  putNewDispatch,
  recordSendOutcome,
  updateFromCallback,
  type DroneDispatch,
  type DroneUpdate,
} from '../../db/drone-dispatches.js';
import { listEnvironments } from '../../db/environments.js';
import { getIncident } from '../../db/incidents.js';
import { getIntegration, type StoredIntegration } from '../../db/integrations.js';
import { listSiteEntitiesOfTenant, SITE_KINDS, type Zone } from '../../db/site-entities.js';
import { ConditionFailed } from '../../db/transact.js';
import { config as settings } from '../../config.js';
import { ConflictError, invalid, NotFoundError, UnauthorizedError } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { droneCallbackBody, droneDispatchCreate } from '../../schemas/drones.js';
import { INTEGRATION_NOT_FOUND } from '../../vocabulary/integrations.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import type { Actor, CallerActor } from '../../vocabulary/actor.js';
import { geofenceContains } from '../geo/index.js';
import { byOf, change, findStored, INCIDENT_NOT_FOUND } from '../incidents/index.js';
import { openIntegrationConfig, outboundPolicy } from '../integrations/index.js';
import { signedHeaders } from '../webhooks/index.js';
import { metresBetween } from '../../geo/distance.js';

export type DroneDispatchCreate = InputOf<typeof droneDispatchCreate>;
export type DroneCallback = InputOf<typeof droneCallbackBody>;
export type { DroneDispatch } from '../../db/drone-dispatches.js';

export const DISPATCH_NOT_FOUND = 'Drone dispatch not found';
/** How far from an environment's reference location a target may be, with no zone around it. */
export const ENVIRONMENT_RADIUS_M = 5_000;
/** How long the dock has to answer a command: the route stays well inside its 15 s. */
export const COMMAND_TIMEOUT_MS = 8_000;
/** A `pending` dispatch older than this was left by a request that ended midway: it is sent again. */
const STALE_PENDING_MS = 30_000;
const FINISHED = ['resolved', 'closed', 'cancelled'];

/** The callback address of a drone integration: the tenant names whose secret signs it. */
export function callbackUrl(tenantId: string, integrationId: string): string | null {
  return settings.publicApiUrl ? `${settings.publicApiUrl}/api/v1/drone-callbacks/${tenantId}/${integrationId}` : null;
}

/** The tenant's drone integration named in a body, or 404 (unknown, another tenant's) or 422 (another kind, disabled). */
function droneIntegration(stored: StoredIntegration | null): StoredIntegration {
  if (!stored) throw new NotFoundError(INTEGRATION_NOT_FOUND);
  if (stored.kind !== 'drone')
    throw invalid(
      ['body', 'integration_id'],
      `is a ${stored.kind} integration, not a drone dock or fleet`,
      'value_error',
    );
  if (!stored.enabled) throw invalid(['body', 'integration_id'], 'is disabled', 'value_error');
  return stored;
}

/**
 * Whether `at` lies in the tenant's area: inside an active zone's geofence of one of its
 * environments that is not inactive, or within ENVIRONMENT_RADIUS_M of such an environment's
 * reference location. Two Queries (environments, then zones only when no location is near).
 */
export async function withinTenantArea(tenantId: TenantId, at: { lat: number; lon: number }): Promise<boolean> {
  const environments = (await listEnvironments(tenantId, {}, { limit: 1000, offset: 0 })).filter(
    (e) => e.status !== 'inactive',
  );
  if (environments.some((e) => e.location && metresBetween(e.location, at) <= ENVIRONMENT_RADIUS_M)) return true;
  const open = new Set(environments.map((e) => e.environment_id));
  if (open.size === 0) return false;
  const zones = await listSiteEntitiesOfTenant<Zone>(SITE_KINDS.zone, tenantId, { limit: 2000, offset: 0 });
  return zones.some((z) => z.active && open.has(z.environment_id) && geofenceContains(z.geofence, at));
}

/** The command's body (Standard Webhooks' shape), the same each time it is sent. */
export function commandBody(
  d: DroneDispatch,
  incident: { title: string; severity: string; location_text: string | null },
  at: Date,
): string {
  return JSON.stringify({
    type: 'drone.dispatch',
    timestamp: at.toISOString(),
    data: {
      dispatch_id: d.dispatch_id,
      incident_id: d.incident_id,
      task: d.task,
      target: d.target,
      altitude_m: d.altitude_m,
      note: d.note,
      incident: incident,
      requested_by: d.requested_by,
      requested_at: d.created_at,
      callback_url: callbackUrl(d.tenant_id, d.integration_id),
    },
  });
}

/** The command's `webhook-id`: stable, so a dock that gets it again can tell. */
const commandId = (dispatchId: string) => `dispatch_${dispatchId}`;

/** Sends the command and records what the dock answered; the dispatch as it is then. */
async function sendCommand(
  d: DroneDispatch,
  integration: StoredIntegration,
  incident: { title: string; severity: string; location_text: string | null },
): Promise<DroneDispatch> {
  const c = await openIntegrationConfig(integration);
  const at = new Date();
  const body = commandBody(d, incident, at);
  const answer = await postOutbound(
    c.url!,
    { headers: signedHeaders(commandId(d.dispatch_id), at, body, [c.secret!]), body, timeoutMs: COMMAND_TIMEOUT_MS },
    outboundPolicy(),
  );
  const took = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const outcome = {
    status: took ? ('sent' as const) : ('failed' as const),
    dock_status_code: answer.status,
    dock_answer: answer.bodyExcerpt ? answer.bodyExcerpt.slice(0, 500) : null,
    dock_error: answer.error ?? (took ? null : `the dock answered ${answer.status}`),
    sent_at: at.toISOString(),
    updated_at: now(),
  };
  await recordSendOutcome(d, outcome);
  // A callback may have come in meanwhile: read the dispatch as stored.
  return (
    (await listDispatches(d.tenant_id, d.incident_id)).find((x) => x.dispatch_id === d.dispatch_id) ?? {
      ...d,
      ...outcome,
      attempts: d.attempts + 1,
    }
  );
}

const resendable = (d: DroneDispatch, nowMs: number) =>
  d.status === 'failed' || (d.status === 'pending' && nowMs - Date.parse(d.updated_at) > STALE_PENDING_MS);

/**
 * Dispatches a drone of a `drone` integration to the incident for `task`. The first dispatch of a
 * task is created (`created: true`); a later one answers the first (sending its command again only
 * if the dock never took it).
 */
export async function dispatchDrone(
  actor: CallerActor,
  tenantId: TenantId,
  incidentId: string,
  input: DroneDispatchCreate,
): Promise<{ dispatch: DroneDispatch; created: boolean }> {
  // Read together, refused in order: the incident (path) first, then the integration (body).
  const [found, stored, existing] = await Promise.all([
    getIncident(tenantId, incidentId),
    getIntegration(tenantId, input.integration_id),
    listDispatches(tenantId, incidentId),
  ]);
  if (!found) throw new NotFoundError(INCIDENT_NOT_FOUND);
  const incident = found;
  const integration = droneIntegration(stored);
  const summary = { title: incident.title, severity: incident.severity, location_text: incident.location_text };
  const first = existing.find((d) => d.task === input.task);
  if (first) {
    if (first.integration_id === integration.integration_id && resendable(first, Date.now()))
      return { dispatch: await sendCommand(first, integration, summary), created: false };
    return { dispatch: first, created: false };
  }
  if (FINISHED.includes(incident.status)) throw new ConflictError(`A ${incident.status} incident gets no drone`);
  const target = input.target ?? incident.location;
  if (!target) throw invalid(['body', 'target'], 'is required: the incident has no location', 'missing');
  if (!(await withinTenantArea(tenantId, target))) {
    throw invalid(
      ['body', 'target'],
      `is outside the tenant's environments (in no active zone, and over ${ENVIRONMENT_RADIUS_M / 1000} km from every environment's location)`,
      'value_error',
    );
  }
  const at = now();
  const dispatch: DroneDispatch = {
    dispatch_id: newTimeId(),
    incident_id: incidentId,
    tenant_id: tenantId,
    integration_id: integration.integration_id,
    task: input.task,
    target: { lat: target.lat, lon: target.lon },
    altitude_m: input.altitude_m ?? null,
    note: input.note ?? null,
    status: 'pending',
    requested_by: byOf(actor),
    attempts: 0,
    dock_status_code: null,
    dock_answer: null,
    dock_error: null,
    sent_at: null,
    last_update: null,
    created_at: at,
    updated_at: at,
  };
  const detail = {
    dispatch_id: dispatch.dispatch_id,
    integration_id: dispatch.integration_id,
    task: dispatch.task,
    target: dispatch.target,
    status: 'dispatched',
  };
  // The incident read above serves the first attempt; a retry after a concurrent change reads it again.
  let read: typeof incident | undefined = incident;
  const load = async () => {
    const current = read ?? (await findStored(tenantId, incidentId));
    read = undefined;
    return current;
  };
  try {
    await change(
      actor,
      tenantId,
      incidentId,
      (current, when) => ({
        next: { ...current, history: [...current.history, { at: when, kind: 'drone', by: byOf(actor), detail }] },
        fields: [],
        action: 'incident.updated',
        changes: { drone_dispatch: detail },
        extra: [
          putNewDispatch(dispatch),
          auditPut(
            auditEntry(actor, {
              tenantId,
              action: 'drone.dispatched',
              resourceType: 'drone_dispatch',
              resourceId: dispatch.dispatch_id,
              changes: {
                incident_id: incidentId,
                integration_id: dispatch.integration_id,
                task: dispatch.task,
                target: dispatch.target,
                altitude_m: dispatch.altitude_m,
                note: dispatch.note,
              },
            }),
          ),
        ],
      }),
      load,
    );
  } catch (err) {
    // The same task dispatched at the same moment: the one that won is the dispatch.
    if (!(err instanceof ConditionFailed)) throw err;
    const won = (await listDispatches(tenantId, incidentId)).find((d) => d.task === input.task);
    if (!won) throw err;
    return { dispatch: won, created: false };
  }
  return { dispatch: await sendCommand(dispatch, integration, summary), created: true };
}

/** A callback whose signature verified: the integration that signed it and the message id. */
export interface VerifiedCallback {
  tenantId: TenantId;
  integration: StoredIntegration;
  messageId: string;
}

const NOT_VERIFIED =
  'The callback is not signed by this drone integration (webhook-id, webhook-timestamp and webhook-signature, Standard Webhooks)';

/**
 * Checks a callback's Standard Webhooks signature over its raw body with the secret of the
 * tenant's drone integration; a timestamp more than 5 minutes off fails too. Unknown tenant or
 * integration, another kind, disabled or a bad signature: all the same 401, so the address tells
 * nothing without the secret.
 */
export async function verifyCallback(
  claimedTenant: string,
  integrationId: string,
  headers: Record<string, string | undefined>,
  rawBody: string,
): Promise<VerifiedCallback> {
  // The address names the tenant; only its integration's secret makes the claim good.
  const tenantId = systemTenant(claimedTenant);
  const messageId = headers['webhook-id'];
  const signed = {
    'webhook-id': messageId ?? '',
    'webhook-timestamp': headers['webhook-timestamp'] ?? '',
    'webhook-signature': headers['webhook-signature'] ?? '',
  };
  if (!messageId || !signed['webhook-timestamp'] || !signed['webhook-signature'])
    throw new UnauthorizedError(NOT_VERIFIED);
  // Read as the tenant the address names (docs/architecture.md, 27).
  const integration = await asTenant(tenantId, () => getIntegration(tenantId, integrationId));
  if (!integration || integration.kind !== 'drone' || !integration.enabled) throw new UnauthorizedError(NOT_VERIFIED);
  const secret = (await openIntegrationConfig(integration)).secret;
  try {
    new Webhook(secret!).verify(rawBody, signed);
  } catch {
    throw new UnauthorizedError(NOT_VERIFIED);
  }
  return { tenantId, integration, messageId };
}

/** Who a callback's timeline entry is by. */
const dockName = (integrationId: string) => `drone:${integrationId}`;

/**
 * A verified callback's update: an entry of kind `drone` on the incident's timeline, the dispatch's
 * status and last update, and its `webhook-id` remembered, in one transaction. A `webhook-id`
 * taken before changes nothing (`duplicate`).
 */
export async function takeCallback(
  actor: Actor,
  v: VerifiedCallback,
  body: DroneCallback,
): Promise<{ dispatch_id: string; status: string; duplicate: boolean }> {
  return asTenant(v.tenantId, () => takeVerified(actor, v, body));
}

async function takeVerified(
  actor: Actor,
  v: VerifiedCallback,
  body: DroneCallback,
): Promise<{ dispatch_id: string; status: string; duplicate: boolean }> {
  const { tenantId, integration } = v;
  const data = body.data;
  const dispatch = (await listDispatches(tenantId, data.incident_id)).find((d) => d.dispatch_id === data.dispatch_id);
  if (!dispatch || dispatch.integration_id !== integration.integration_id) throw new NotFoundError(DISPATCH_NOT_FOUND);
  const update: DroneUpdate = {
    status: data.status,
    at: data.at ?? body.timestamp,
    text: data.text ?? null,
    media_url: data.media_url ?? null,
  };
  const detail = {
    dispatch_id: dispatch.dispatch_id,
    integration_id: integration.integration_id,
    task: dispatch.task,
    status: data.status,
    reported_at: update.at,
    ...(data.text ? { text: data.text } : {}),
    ...(data.media_url ? { media_url: data.media_url } : {}),
    ...(data.position ? { position: data.position } : {}),
    ...(data.battery_pct !== undefined ? { battery_pct: data.battery_pct } : {}),
    ...(data.drone_id ? { drone_id: data.drone_id } : {}),
    webhook_id: v.messageId,
  };
  try {
    await change(actor, tenantId, data.incident_id, (current, when) => ({
      next: {
        ...current,
        history: [...current.history, { at: when, kind: 'drone', by: dockName(integration.integration_id), detail }],
      },
      fields: [],
      action: 'incident.updated',
      changes: { drone_update: detail },
      extra: [
        putCallbackSeen(tenantId, data.incident_id, integration.integration_id, v.messageId, Date.now()),
        updateFromCallback(dispatch, update, when),
      ],
    }));
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err;
    // The webhook-id was taken before (or the dispatch went meanwhile): nothing more is added.
    const now_ = (await listDispatches(tenantId, data.incident_id)).find((d) => d.dispatch_id === data.dispatch_id);
    if (!now_) throw new NotFoundError(DISPATCH_NOT_FOUND);
    return { dispatch_id: now_.dispatch_id, status: now_.status, duplicate: true };
  }
  return { dispatch_id: dispatch.dispatch_id, status: data.status, duplicate: false };
}
