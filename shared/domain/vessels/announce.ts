/**
 * Announcing the service's own events: vessel episodes (docs/vessels.md), watchlist alerts
 * (docs/watchlist.md) and connectors' hazard and routing alerts (docs/connectors.md). The tracker sends each new episode's event out in the episode's own
 * transaction (an outbox message), the watchlist its alert's with the alert's guard, and the
 * `vessel-announcer` worker ingests it here like any event a client sends, so zones, threat
 * definitions, scoring, incidents, webhooks and workflows see it. The event's id is derived from
 * the episode or the alert: a message handled twice stores one event.
 */
import { ConflictError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { systemActor } from '../actor.js';
import { ingestEvents, type EventInput } from '../events/index.js';
import { addTenantEvents } from '../requests/index.js';

/** Who announces an event of a type, as its actor shows it. */
const ANNOUNCER: Partial<Record<string, string>> = {
  'watchlist.alert': 'watchlist',
  'hazard.alert': 'connector',
  'bgp.alert': 'connector',
};

export async function announceEvent(tenantId: TenantId, event: EventInput): Promise<void> {
  try {
    await ingestEvents(
      systemActor(`${ANNOUNCER[event.type] ?? 'vessel-announcer'}-${event.event_id ?? ''}`),
      {
        decideTenant: () => Promise.resolve(tenantId),
        // The service's own events count in the tenant's zones, not against its request rate.
        meter: async (stored, atMs) =>
          new Map(
            await Promise.all(
              [...stored].map(async ([t, counts]) => [t, await addTenantEvents(t, counts, atMs)] as const),
            ),
          ),
      },
      [event],
      () => ['body'],
    );
  } catch (err) {
    // Stored before with other figures (an episode announced, then recomputed before a retry; an
    // alert of the same bucket raised again after its guard expired): it stands.
    if (!(err instanceof ConflictError)) throw err;
  }
}
