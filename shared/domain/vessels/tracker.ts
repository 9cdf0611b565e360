/**
 * The vessel tracker (part of the stream worker `count-analytics`, docs/vessels.md): from stored AIS events to each
 * vessel's track, identity and behaviour episodes. Per batch and vessel: the positions are put
 * (idempotent), the vessel's last position moves forward, the track around the batch's positions
 * is read back (one Query, and one for the position before it) and analysed, and the episodes
 * found there replace those stored for that stretch. A new episode is announced as an event of
 * the tenant (`ais.gap` when the vessel reappears, `vessel.loitering` once it has lasted long
 * enough): the event goes out in the episode's transaction as an outbox message, and the
 * `vessel-announcer` worker ingests it like any other (shared/domain/vessels/announce.ts), so
 * threat definitions, incidents, webhooks and workflows see it; its id is derived from the
 * episode, so a retry announces nothing twice. AIS decoding
 * failures are counted per tenant and day, exactly once.
 */
import { getTenantConfig } from '../../db/tenants.js';
import {
  countAisFailure,
  deleteEpisode,
  episodesOfVessel,
  positionBefore,
  putEpisode,
  putPositions,
  reviseIdentity,
  touchVessel,
  trackBetween,
  type EpisodeKind,
  type StoredEpisode,
  type StoredPosition,
  type VesselIdentity,
} from '../../db/vessels/index.js';
import { derivedTimeId, timeOfId } from '../../ids.js';
import type { EventInput } from '../events/index.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { analyseTrack, type Behaviour } from './track-analysis.js';
import { joinedMessages } from './fragments.js';
import type { AisEvent } from './ais-input.js';

export type { AisEvent };

/** How far around a batch's positions the track is read again to find its episodes. */
const WINDOW_MS = 24 * 3600_000;
/** Positions read for one window at most. */
const WINDOW_POSITIONS = 5000;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

function positionOf(e: AisEvent): StoredPosition | null {
  const mmsi = str(e.payload.mmsi);
  if (e.type !== 'ais.position' || !mmsi || !e.location || e.payload.ais_error) return null;
  return {
    mmsi,
    event_id: e.event_id,
    occurred_at: e.occurred_at,
    lat: e.location.lat,
    lon: e.location.lon,
    sog_knots: num(e.payload.sog_knots),
    cog_degrees: num(e.payload.cog_degrees),
    heading_degrees: num(e.payload.heading_degrees),
    nav_status: num(e.payload.nav_status),
    message_type: num(e.payload.message_type),
    environment_id: e.environment_id,
    zone_ids: e.matched_zone_ids,
  };
}

type Reported = Omit<VesselIdentity, 'reported_at'>;

/**
 * What an AIS event says the vessel is, whatever its type: static data (types 5 and 24, also
 * when a client sends it as `ais.position`) and the name, ship type and dimensions of a type 19
 * position report. Null when it says nothing of it.
 */
function identityOf(e: AisEvent): Reported | null {
  if (!str(e.payload.mmsi) || e.payload.ais_error) return null;
  const p = e.payload;
  const dimensions = p.dimensions && typeof p.dimensions === 'object' ? (p.dimensions as Reported['dimensions']) : null;
  const said: Reported = {
    name: str(p.name),
    call_sign: str(p.call_sign),
    imo: num(p.imo),
    ship_type: num(p.ship_type),
    dimensions,
    draught_m: num(p.draught_m),
    destination: str(p.destination),
  };
  return Object.values(said).some((v) => v !== null) ? said : null;
}

/**
 * A vessel's identity with a report merged in. A report tells only some fields (a type 24 part A
 * the name, its part B the ship type, call sign and size; a type 19 the name, type and size), and
 * "not available" (null) erases nothing: what a report tells replaces what an older one told,
 * and an older report only fills what is still unknown. Null when nothing changes.
 */
export function mergeIdentity(current: VesselIdentity | null, said: Reported, at: string): VesselIdentity | null {
  const newer = !current?.reported_at || current.reported_at <= at;
  const before: Record<string, unknown> = { ...EMPTY_IDENTITY, ...current };
  const merged: Record<string, unknown> = { ...before, reported_at: newer ? at : current.reported_at };
  for (const [field, value] of Object.entries(said)) {
    if (value !== null && (newer || merged[field] === null)) merged[field] = value;
  }
  return current && JSON.stringify(merged) === JSON.stringify(before) ? null : (merged as unknown as VesselIdentity);
}

/** An identity of which nothing is known yet. */
export const EMPTY_IDENTITY: VesselIdentity = {
  name: null,
  call_sign: null,
  imo: null,
  ship_type: null,
  dimensions: null,
  draught_m: null,
  destination: null,
  reported_at: null,
};

/** Tracks one tenant's AIS events (any order; retried batches welcome). */
export async function trackTenant(tenantId: TenantId, events: readonly AisEvent[]): Promise<void> {
  const config = await getTenantConfig(tenantId);
  const keepDays = config?.retention_days.events ?? 90;
  const expiresAt = Math.floor(Date.now() / 1000) + keepDays * 86400;

  for (const e of events) {
    const error = e.payload.ais_error as { reason?: string } | undefined;
    if (error?.reason) await countAisFailure(tenantId, e.event_id, e.occurred_at.slice(0, 10), error.reason, expiresAt);
  }
  // Messages whose parts came one event at a time, once their last part is here.
  const reports = [...events, ...(await joinedMessages(tenantId, events))];
  const positions = reports.map(positionOf).filter((p): p is StoredPosition => p !== null);
  await putPositions(tenantId, positions, expiresAt);

  // Identities, in time order (any order gives the same identity: mergeIdentity).
  for (const e of [...reports].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at))) {
    const said = identityOf(e);
    if (said)
      await reviseIdentity(tenantId, String(e.payload.mmsi), e.occurred_at, (current) =>
        mergeIdentity(current, said, e.occurred_at),
      );
  }

  const byVessel = new Map<string, StoredPosition[]>();
  for (const p of positions) byVessel.set(p.mmsi, [...(byVessel.get(p.mmsi) ?? []), p]);
  for (const [mmsi, own] of byVessel) {
    own.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
    await touchVessel(tenantId, mmsi, own[own.length - 1]!);
    await settleEpisodes(tenantId, mmsi, own, expiresAt);
  }
}

/** Finds the episodes of the stretch of track around `own` and makes the stored ones agree. */
async function settleEpisodes(
  tenantId: TenantId,
  mmsi: string,
  own: StoredPosition[],
  expiresAt: number,
): Promise<void> {
  const from = new Date(Date.parse(own[0]!.occurred_at) - WINDOW_MS).toISOString();
  const to = new Date(Date.parse(own[own.length - 1]!.occurred_at) + WINDOW_MS).toISOString();
  const [before, window] = await Promise.all([
    positionBefore(tenantId, mmsi, from),
    trackBetween(tenantId, mmsi, from, to, WINDOW_POSITIONS),
  ]);
  const track = before ? [before, ...window] : window;
  if (track.length === 0) return;
  // Speeds are judged by the profile, with the vessel's type; episodes need no type.
  const behaviour = analyseTrack(track, Infinity);
  const stretchStart = track[0]!.occurred_at;
  const stretchEnd = track[track.length - 1]!.occurred_at;
  await Promise.all([
    reconcile(tenantId, mmsi, 'gap', gapEpisodes(mmsi, behaviour), stretchStart, stretchEnd, expiresAt, track),
    reconcile(tenantId, mmsi, 'loitering', loiterEpisodes(mmsi, behaviour), stretchStart, stretchEnd, expiresAt, track),
  ]);
}

interface Found {
  episode: StoredEpisode;
  /** The position whose report revealed it: the gap's end, the loitering's "long enough" report. */
  trigger: StoredPosition | undefined;
  triggerEventId: string;
}

function gapEpisodes(mmsi: string, b: Behaviour): Omit<Found, 'trigger'>[] {
  return b.gaps.map((g) => ({
    episode: {
      mmsi,
      kind: 'gap',
      start: g.start,
      end: g.end,
      duration_minutes: g.duration_minutes,
      from: g.from,
      to: g.to,
      event_id: null,
    },
    triggerEventId: '',
  }));
}

function loiterEpisodes(mmsi: string, b: Behaviour): Omit<Found, 'trigger'>[] {
  return b.loitering.map((l) => ({
    episode: {
      mmsi,
      kind: 'loitering',
      start: l.start,
      end: l.end,
      duration_minutes: l.duration_minutes,
      from: l.from,
      to: l.to,
      center: l.center,
      radius_m: l.radius_m,
      mean_sog_knots: l.mean_sog_knots,
      event_id: null,
    },
    triggerEventId: l.detected_event_id,
  }));
}

async function reconcile(
  tenantId: TenantId,
  mmsi: string,
  kind: EpisodeKind,
  found: Omit<Found, 'trigger'>[],
  stretchStart: string,
  stretchEnd: string,
  expiresAt: number,
  track: StoredPosition[],
): Promise<void> {
  // Episodes stored for this stretch: those that start in it, and one that began before and runs into it.
  const lookFrom = new Date(Date.parse(stretchStart) - 7 * 86400_000).toISOString();
  const stored = (await episodesOfVessel(tenantId, mmsi, kind, lookFrom)).filter(
    (e) => e.end >= stretchStart && e.start <= stretchEnd,
  );
  const kept = new Set<string>();
  for (const f of found) {
    // The stored episode this one is (the same start, or one it overlaps: a report that came late
    // moved its start); it keeps its announcement.
    const previous =
      stored.find((s) => s.start === f.episode.start) ??
      stored.find((s) => !kept.has(s.start) && s.start <= f.episode.end && s.end >= f.episode.start);
    // One that began before the stretch read is the same episode, longer than the stretch shows.
    const episode =
      previous && previous.start < stretchStart
        ? { ...f.episode, start: previous.start, from: previous.from }
        : f.episode;
    kept.add(episode.start);
    const trigger =
      kind === 'gap'
        ? track.find((p) => p.occurred_at === episode.end)
        : track.find((p) => p.event_id === f.triggerEventId);
    // A new episode is announced: the event to ingest goes out with the episode, in one transaction.
    const announce = !previous?.event_id && trigger ? announcement(tenantId, episode, trigger) : null;
    const next = { ...episode, event_id: previous?.event_id ?? announce?.event_id ?? null };
    if (
      !previous ||
      previous.start !== next.start ||
      previous.end !== next.end ||
      previous.event_id !== next.event_id ||
      previous.duration_minutes !== next.duration_minutes
    ) {
      await putEpisode(tenantId, next, expiresAt, announce);
    }
  }
  // What the stretch no longer shows (a report came late, inside a gap; a start moved) goes.
  for (const s of stored) if (!kept.has(s.start) && s.start >= stretchStart) await deleteEpisode(tenantId, s);
}

/**
 * The event that announces an episode, with an id derived from it (its time: the report that
 * revealed it, received moments ago), so announcing again stores nothing new.
 */
function announcement(tenantId: TenantId, episode: StoredEpisode, trigger: StoredPosition): EventInput {
  const eventId = derivedTimeId(
    timeOfId(trigger.event_id),
    `${tenantId}/${episode.mmsi}/${episode.kind}/${episode.start}`,
    0,
  );
  const where = trigger.environment_id ? { environment_id: trigger.environment_id } : {};
  if (episode.kind === 'gap') {
    return {
      event_id: eventId,
      type: 'ais.gap',
      source: 'sensor',
      ...where,
      occurred_at: episode.end,
      location: episode.to,
      description: `AIS gap of ${Math.round(episode.duration_minutes)} minutes: ${episode.mmsi} went silent at ${episode.start} and reappeared at ${episode.end}`,
      payload: {
        mmsi: episode.mmsi,
        gap_minutes: episode.duration_minutes,
        gap_start: episode.start,
        gap_end: episode.end,
        from: episode.from,
        to: episode.to,
      },
    };
  }
  return {
    event_id: eventId,
    type: 'vessel.loitering',
    source: 'sensor',
    ...where,
    occurred_at: trigger.occurred_at,
    location: episode.center!,
    description: `${episode.mmsi} has stayed within ${episode.radius_m} m at ${episode.mean_sog_knots ?? '?'} knots since ${episode.start}`,
    payload: {
      mmsi: episode.mmsi,
      speed_knots: episode.mean_sog_knots ?? 0,
      duration_minutes: Math.round((Date.parse(trigger.occurred_at) - Date.parse(episode.start)) / 60_000),
      loitering_start: episode.start,
      radius_m: episode.radius_m,
    },
  };
}
