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
} as const;
