/**
 * The keys of vessels' items (docs/data-model.md, patterns 45 to 45e), apart from
 * shared/db/keys.ts so that only the functions that read or write vessels carry them.
 */
import { tenantPk } from '../keys.js';

export const vesselKeys = {
  /**
   * A vessel's position report (shared/db/vessels/store.ts), in the vessel's partition by time: "track of
   * an MMSI between times" is one Query. Kept as long as the tenant keeps events.
   */
  vesselPosition: (tenantId: string, mmsi: string, occurredAt: string, eventId: string) => ({
    PK: `${tenantPk(tenantId)}#VESSEL#${mmsi}`,
    SK: `P#${occurredAt}#${eventId}`,
  }),
  /** GSI1: the positions in one grid cell (VESSEL_CELL_DEGREES), by time: "vessels seen in an area and time" is one Query per cell. */
  vesselArea: (tenantId: string, cell: string, occurredAt: string, mmsi: string, eventId: string) => ({
    GSI1PK: `${tenantPk(tenantId)}#AREA#${cell}`,
    GSI1SK: `${occurredAt}#${mmsi}#${eventId}`,
  }),
  /** A vessel: identity (static data), first and last seen, last position. */
  vessel: (tenantId: string, mmsi: string) => ({ PK: tenantPk(tenantId), SK: `VESSEL#${mmsi}` }),
  /** GSI2: a tenant's vessels by the time last seen (recently seen first; silent ones are the dark ones). */
  vesselRecency: (tenantId: string, lastSeen: string, mmsi: string) => ({
    GSI2PK: `${tenantPk(tenantId)}#VESSELS`,
    GSI2SK: `${lastSeen}#${mmsi}`,
  }),
  /** A behaviour episode of a vessel (an AIS gap, loitering), by kind and start. */
  vesselEpisode: (tenantId: string, mmsi: string, kind: string, start: string) => ({
    PK: `${tenantPk(tenantId)}#VESSEL#${mmsi}`,
    SK: `E#${kind}#${start}`,
  }),
  /** GSI3: a tenant's episodes of one kind by their end: the dark and the loitering vessels of a window. */
  vesselEpisodeByEnd: (tenantId: string, kind: string, end: string, mmsi: string) => ({
    GSI3PK: `${tenantPk(tenantId)}#EPISODES#${kind}`,
    GSI3SK: `${end}#${mmsi}`,
  }),
  /** A tenant's AIS decoding failures of one UTC day, by reason. */
  aisStats: (tenantId: string, day: string) => ({ PK: `${tenantPk(tenantId)}#STATS`, SK: `AIS#${day}` }),
  /**
   * A part of a multi-part AIS message that came in an event of its own (a raw feed sends a type 5
   * report's two sentences one by one): kept a few minutes until the other parts come, by the
   * message's group (receiver, channel, sequential id, part count) and part number.
   */
  aisFragment: (tenantId: string, group: string, part: number) => ({
    PK: `${tenantPk(tenantId)}#AISPARTS#${group}`,
    SK: `${part}`,
  }),
  /** An event whose AIS failure is counted already (exactly once, however often it comes). */
  aisCounted: (tenantId: string, eventId: string) => ({ PK: `${tenantPk(tenantId)}#COUNTED`, SK: `AIS#${eventId}` }),
} as const;
