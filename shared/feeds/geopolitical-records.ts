/**
 * What the geopolitical feeds keep (docs/feeds.md, "Geopolitical advisories and sanctions"), all
 * by country (ISO 3166-1 alpha-2): a travel advisory level, a sanctions programme, and, where a
 * sanctions list names them, vessels (by IMO and by MMSI) and other listed entities. Ids start
 * with the kind and the country or identifier, so the overlay reads them by key or by prefix.
 */

/** 1 normal precautions, 2 increased caution, 3 reconsider (or avoid non-essential) travel, 4 do not travel. */
export type AdvisoryLevel = 1 | 2 | 3 | 4;

/** Where a record came from: a publisher's format, or a tenant's list in Gatehouse's own format. */
export type GeoSourceKind = 'us-state-dept' | 'ca-gac' | 'ofac-sdn' | 'list';

export interface AdvisoryRecord {
  /** `advisory|<country>`: one advisory per country and source. */
  id: string;
  kind: 'advisory';
  country: string;
  level: AdvisoryLevel;
  title: string;
  summary: string | null;
  /** When the publisher last issued it (ISO UTC), or null when it says not. */
  updated: string | null;
  url: string | null;
  source: GeoSourceKind;
  source_url: string;
}

export interface SanctionsProgrammeRecord {
  /** `programme|<country>|<programme>`. */
  id: string;
  kind: 'sanctions_programme';
  country: string;
  programme: string;
  summary: string | null;
  /** How many entries of the list carry the programme (a list of entries); null for a list of programmes. */
  listed: number | null;
  updated: string | null;
  url: string | null;
  source: GeoSourceKind;
  source_url: string;
}

export interface SanctionedVesselRecord {
  /** `vessel|imo|<IMO number>` or `vessel|mmsi|<MMSI>`: a listed vessel is kept under each identifier it has. */
  id: string;
  kind: 'sanctioned_vessel';
  listing_id: string;
  name: string;
  imo: string | null;
  mmsi: string | null;
  call_sign: string | null;
  vessel_type: string | null;
  /** The flag as ISO alpha-2 when the list's flag name could be read, and the name as listed. */
  flag: string | null;
  flag_name: string | null;
  programmes: string[];
  source: GeoSourceKind;
  source_url: string;
}

export interface SanctionedEntityRecord {
  /** `entity|<listing id>`. */
  id: string;
  kind: 'sanctioned_entity';
  listing_id: string;
  name: string;
  /** `individual`, `entity`, `vessel`, `aircraft`: as the list types it. */
  entity_type: string;
  programmes: string[];
  /** The countries of its country programmes (none for a thematic one: terrorism, narcotics, cyber). */
  countries: string[];
  source: GeoSourceKind;
  source_url: string;
}

/**
 * What a document lists now: the ids of its advisories, programmes and vessels (not its entities).
 * Records are never removed when a source drops them (docs/connectors.md), so the overlay reads
 * only the records its source's manifest names: a delisted vessel stops being flagged at the next
 * poll. OFAC's list gives about 3,000 ids, some 70 KB of DynamoDB's 400 KB item.
 */
export interface ManifestRecord {
  id: typeof MANIFEST_ID;
  kind: 'manifest';
  ids: string[];
}

export const MANIFEST_ID = 'manifest';

/** The records and, last, their manifest (of every record that is not an entity). */
export function withManifest<R extends { id: string; kind: string }>(records: R[]): (R | ManifestRecord)[] {
  return [
    ...records,
    { id: MANIFEST_ID, kind: 'manifest', ids: records.filter((r) => r.kind !== 'sanctioned_entity').map((r) => r.id) },
  ];
}

export type GeoRecord =
  AdvisoryRecord | SanctionsProgrammeRecord | SanctionedVesselRecord | SanctionedEntityRecord | ManifestRecord;

export const ADVISORY_PREFIX = 'advisory|';
export const PROGRAMME_PREFIX = 'programme|';
export const advisoryId = (country: string) => `${ADVISORY_PREFIX}${country}`;
export const programmeId = (country: string, programme: string) => `${PROGRAMME_PREFIX}${country}|${programme}`;
export const vesselImoId = (imo: string) => `vessel|imo|${imo}`;
export const vesselMmsiId = (mmsi: string) => `vessel|mmsi|${mmsi}`;
export const entityId = (listingId: string) => `entity|${listingId}`;

/** An IMO ship identification number: seven digits, the last a check digit (IMO Resolution A.1117(30)). */
export function validImo(imo: string): boolean {
  if (!/^\d{7}$/.test(imo)) return false;
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- seven ASCII digits, checked above
  const sum = [...imo.slice(0, 6)].reduce((s, d, i) => s + Number(d) * (7 - i), 0);
  return sum % 10 === Number(imo[6]);
}
