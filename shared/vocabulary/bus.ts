/**
 * The names integrators write EventBridge rules against (docs/events.md). Changing one breaks
 * their rules: add, never rename.
 */

/** The source of every stored event; its detail-type is the event's type. */
export const EVENTS_SOURCE = 'gatehouse.events';

/** The vessel tracker's messages: an episode found, carrying the event that announces it (docs/vessels.md). */
export const VESSELS_SOURCE = 'gatehouse.vessels';
export const EPISODE_FOUND = 'vessel.episode_found';

/** A watched entity touched: the message carries the `watchlist.alert` event to store (docs/watchlist.md). */
export const WATCHLIST_SOURCE = 'gatehouse.watchlist';
export const WATCH_ALERT_FOUND = 'watchlist.alert_found';

/** A connector's record near one of the tenant's places: the message carries the `hazard.alert` event to store (docs/connectors.md). */
export const CONNECTORS_SOURCE = 'gatehouse.connectors';
export const HAZARD_FOUND = 'hazard.alert_found';
/** A RIS Live connector's possible hijack or leak of what the tenant watches: the message carries the `bgp.alert` event to store (docs/connectors.md). */
export const BGP_ALERT_FOUND = 'bgp.alert_found';
/**
 * An infrastructure file too large for a request, marked `processing` by its extract call: the
 * message (written in the same transaction) hands it to the `map-extractions` queue and its
 * `extract-maps` worker (docs/features.md).
 */
export const INFRASTRUCTURE_SOURCE = 'gatehouse.infrastructure';
export const EXTRACTION_REQUESTED = 'infrastructure.extraction_requested';
/**
 * A tenant's plan changed (`PATCH /api/v1/tenants/{id}`): the message, written with the change,
 * goes to the `plan-changes` queue, whose `retention-restamp` worker gives the tenant's events
 * the TTL of the new plan's retention (docs/plans.md).
 */
export const TENANTS_SOURCE = 'gatehouse.tenants';
export const PLAN_CHANGED = 'tenant.plan_changed';
/** Not a bus message: the envelope a connector's poll sends its new records in to the `data-lake` queue (docs/data-lake.md). */
export const FEED_RECORDS_EXPORTED = 'feed.records_exported';

/** Sources of outbox messages: `gatehouse.<feature>`, e.g. `gatehouse.incidents`. */
export const OUTBOX_SOURCE = /^gatehouse\.[a-z][a-z0-9-]*$/;

/** Detail-types of outbox messages: `<resource>.<change>`, e.g. `incident.created`. */
export const DETAIL_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** Whether an outbox message may use this source (never the stored events' own). */
export const isOutboxSource = (source: unknown): source is string =>
  typeof source === 'string' && OUTBOX_SOURCE.test(source) && source !== EVENTS_SOURCE;

/** One message for the bus, before EventBridge's framing. */
export interface BusEntry {
  source: string;
  detailType: string;
  detail: Record<string, unknown>;
  /** When it happened, RFC 3339: the event's `received_at`, the message's `created_at`. */
  time: string;
}

/** The bus's answer for one entry: nothing when accepted. */
export interface EntryOutcome {
  errorCode?: string;
  errorMessage?: string;
}

/** Sends up to 10 entries in one call; one outcome per entry, in order. May throw for the call. */
