/**
 * The keys of the mention index (docs/data-model.md, pattern 48), apart from shared/db/keys.ts so
 * that only the stream worker and the threat score carry them.
 */
import { tenantPk } from './keys.js';

export const mentionKeys = {
  /**
   * An event naming an entity (an IP, a domain, an MMSI, a sensor) or falling in a grid cell
   * (`cell`), in the entity's partition by time: "the events that named this target since" is one
   * Query, newest first.
   */
  mention: (tenantId: string, type: string, value: string, occurredAt: string, eventId: string) => ({
    PK: `${tenantPk(tenantId)}#MENTION#${type}#${value}`,
    SK: `${occurredAt}#${eventId}`,
  }),
  /**
   * What the events that named an entity on one UTC day (`YYYY-MM-DD`, of their `occurred_at`) add
   * up to, in the entity's partition: `#` sorts before every time, so no Query of the mentions by
   * time reads it (pattern 48a).
   */
  mentionDay: (tenantId: string, type: string, value: string, day: string) => ({
    PK: `${tenantPk(tenantId)}#MENTION#${type}#${value}`,
    SK: `#DAY#${day}`,
  }),
} as const;
