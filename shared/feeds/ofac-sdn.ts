/**
 * OFAC's Specially Designated Nationals and Blocked Persons list (SDN), its CSV form (docs/feeds.md):
 * one row per listing, no header, the columns of OFAC's data specification (`ent_num`, `SDN_Name`,
 * `SDN_Type`, `Program`, `Title`, `Call_Sign`, `Vess_type`, `Tonnage`, `GRT`, `Vess_flag`,
 * `Vess_owner`, `Remarks`), `-0-` for an empty field, several programmes in one field as
 * `SDGT] [IFSR`.
 *
 * Kept: every listing as an entity record; every listed vessel under its IMO number and its MMSI
 * (read from the remarks, `IMO 9339301; MMSI 636013272`); and, per country programme (IRAN,
 * DPRK3, RUSSIA-EO14024...), a programme record for that country with the number of listings
 * carrying it. Thematic programmes (SDGT terrorism, SDNTK narcotics, CYBER2...) name no country.
 */
import { FeedFormatError, type FeedParse, type FeedProblem } from './feed-document.js';
import { csvRows } from './indicators.js';
import {
  entityId,
  programmeId,
  validImo,
  vesselImoId,
  vesselMmsiId,
  withManifest,
  type ManifestRecord,
  type SanctionedEntityRecord,
  type SanctionedVesselRecord,
  type SanctionsProgrammeRecord,
} from './geopolitical-records.js';
import { MID_ALLOCATIONS } from '../vocabulary/maritime-mid.js';

export const OFAC_SDN_URL = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV';
export const OFAC_SDN_DESCRIPTION =
  "OFAC's SDN list (CSV): country sanctions programmes, listed vessels by IMO and MMSI, listed entities";
/** OFAC's page of programmes, given as the programme records' address. */
export const OFAC_PROGRAMMES_URL = 'https://ofac.treasury.gov/sanctions-programs-and-country-information';

const FEED = 'OFAC SDN';
const COLUMNS = 12;

/**
 * OFAC programme tags that target one country, and that country. A tag is the name, or the name
 * followed by a digit or a dash (`DPRK3`, `IRAN-EO13846`, `LIBYA2`). Tags not here (thematic
 * ones, and the Ukraine-/Russia-related EO 13660, 13661 and 13685, which list persons of several
 * countries) name no country.
 */
const COUNTRY_PROGRAMMES: readonly (readonly [string, string])[] = [
  ['IRAN', 'IR'],
  ['IFSR', 'IR'],
  ['IRGC', 'IR'],
  ['DPRK', 'KP'],
  ['RUSSIA', 'RU'],
  ['UKRAINE-EO13662', 'RU'],
  ['BELARUS', 'BY'],
  ['SYRIA', 'SY'],
  ['CUBA', 'CU'],
  ['VENEZUELA', 'VE'],
  ['LIBYA', 'LY'],
  ['SOMALIA', 'SO'],
  ['SOUTH SUDAN', 'SS'],
  ['SUDAN', 'SD'],
  ['YEMEN', 'YE'],
  ['IRAQ', 'IQ'],
  ['LEBANON', 'LB'],
  ['BURMA', 'MM'],
  ['CAR', 'CF'],
  ['DRCONGO', 'CD'],
  ['MALI', 'ML'],
  ['NICARAGUA', 'NI'],
  ['ZIMBABWE', 'ZW'],
  ['ETHIOPIA', 'ET'],
  ['HK', 'HK'],
  ['CMIC', 'CN'],
];

export function countryOfProgramme(tag: string): string | null {
  for (const [name, country] of COUNTRY_PROGRAMMES) {
    if (tag === name || (tag.startsWith(name) && /^[\d-]/.test(tag.slice(name.length)))) return country;
  }
  return null;
}

/**
 * A flag as OFAC names it (`Panama`, `Cook Islands`, `Gabon`) to ISO alpha-2, by the ITU's names
 * in the MID table (`Panama (Republic of)`, `New Zealand - Cook Islands`, `Gabonese Republic`): the
 * name before a parenthesis, or the territory after a dash, equal to it; else the one country whose
 * name starts with it. Otherwise null (the name is still shown).
 */
const FLAG_NAMES: readonly (readonly [string, string])[] = /* @__PURE__ */ (() =>
  MID_ALLOCATIONS.flatMap(({ country, country_code }) => {
    const [head, territory] = country.toLowerCase().split(' - ');
    return [
      [head!.split(' (')[0]!.trim(), country_code] as const,
      ...(territory ? [[territory.split(' (')[0]!.trim(), country_code] as const] : []),
    ];
  }))();

function flagCode(name: string | null): string | null {
  if (!name) return null;
  const n = name.trim().toLowerCase();
  const exact = FLAG_NAMES.find(([candidate]) => candidate === n);
  if (exact) return exact[1];
  const starts = new Set(FLAG_NAMES.filter(([candidate]) => candidate.startsWith(n)).map(([, code]) => code));
  return starts.size === 1 ? [...starts][0]! : null;
}

const field = (raw: string | undefined): string | null => {
  const v = (raw ?? '').trim();
  return v === '' || v === '-0-' ? null : v;
};

export type OfacSdnRecord = SanctionedEntityRecord | SanctionedVesselRecord | SanctionsProgrammeRecord | ManifestRecord;

export function parseOfacSdn(body: string, sourceUrl: string): FeedParse<OfacSdnRecord> {
  const start = body.trimStart();
  if (start.startsWith('<') || start.startsWith('{') || start.startsWith('['))
    throw new FeedFormatError(FEED, `the body is not CSV (starts "${start.slice(0, 32)}")`);
  const rows = csvRows(body.replace(/^\uFEFF/, '')).filter((r) => !(r.length === 1 && r[0]!.trim() === '\u001a'));
  const first = rows[0];
  if (!first || first.length !== COLUMNS || !/^\d+$/.test(first[0]!.trim())) {
    throw new FeedFormatError(
      FEED,
      `the first row is not an SDN listing of ${COLUMNS} fields starting with its number (${JSON.stringify((first ?? []).slice(0, 4))})`,
    );
  }
  const entities: SanctionedEntityRecord[] = [];
  const vessels: SanctionedVesselRecord[] = [];
  const problems: FeedProblem[] = [];
  const programmeCounts = new Map<string, { country: string; programme: string; listed: number }>();
  const seen = new Set<string>();
  rows.forEach((r, entry) => {
    const listing = (r[0] ?? '').trim();
    if (r.length !== COLUMNS)
      return problems.push({
        entry,
        id: /^\d+$/.test(listing) ? entityId(listing) : null,
        reason: `${r.length} fields, not ${COLUMNS}`,
      });
    if (!/^\d+$/.test(listing))
      return problems.push({
        entry,
        id: null,
        reason: `the listing number is not a whole number (${JSON.stringify(listing)})`,
      });
    const id = entityId(listing);
    const name = field(r[1]);
    if (!name) return problems.push({ entry, id, reason: 'no name' });
    const programmes = (field(r[3]) ?? '')
      .split('] [')
      .map((p) => p.trim())
      .filter(Boolean);
    if (programmes.length === 0) return problems.push({ entry, id, reason: 'no programme' });
    if (seen.has(id)) return problems.push({ entry, id, reason: 'the same listing twice' });
    seen.add(id);
    const entityType = field(r[2]) ?? 'entity';
    const countries = [...new Set(programmes.map(countryOfProgramme).filter((c): c is string => c !== null))];
    entities.push({
      id,
      kind: 'sanctioned_entity',
      listing_id: listing,
      name,
      entity_type: entityType,
      programmes,
      countries,
      source: 'ofac-sdn',
      source_url: sourceUrl,
    });
    for (const programme of programmes) {
      const country = countryOfProgramme(programme);
      if (!country) continue;
      const key = programmeId(country, programme);
      const count = programmeCounts.get(key) ?? { country, programme, listed: 0 };
      count.listed++;
      programmeCounts.set(key, count);
    }
    if (entityType !== 'vessel') return;
    const remarks = field(r[11]) ?? '';
    const imo = /\bIMO (\d{7})\b/.exec(remarks)?.[1] ?? null;
    const mmsi = /\bMMSI (\d{9})\b/.exec(remarks)?.[1] ?? null;
    if (imo && !validImo(imo))
      problems.push({ entry, id, reason: `IMO ${imo} fails its check digit: the vessel is kept by MMSI only` });
    const goodImo = imo && validImo(imo) ? imo : null;
    if (!goodImo && !mmsi)
      return problems.push({
        entry,
        id,
        reason: 'a vessel with neither an IMO number nor an MMSI: it cannot be matched',
      });
    const flagName = field(r[9]);
    const vessel = {
      kind: 'sanctioned_vessel' as const,
      listing_id: listing,
      name,
      imo: goodImo,
      mmsi,
      call_sign: field(r[5]),
      vessel_type: field(r[6]),
      flag: flagCode(flagName),
      flag_name: flagName,
      programmes,
      source: 'ofac-sdn' as const,
      source_url: sourceUrl,
    };
    for (const vid of [goodImo ? vesselImoId(goodImo) : null, mmsi ? vesselMmsiId(mmsi) : null]) {
      if (!vid) continue;
      if (seen.has(vid))
        problems.push({ entry, id: vid, reason: 'a second listing of the same vessel identifier: the first is kept' });
      else {
        seen.add(vid);
        vessels.push({ id: vid, ...vessel });
      }
    }
  });
  const programmeRecords: SanctionsProgrammeRecord[] = [...programmeCounts].map(([id, c]) => ({
    id,
    kind: 'sanctions_programme',
    country: c.country,
    programme: c.programme,
    summary: `OFAC programme ${c.programme}: ${c.listed} listing${c.listed === 1 ? '' : 's'} on the SDN list`,
    listed: c.listed,
    updated: null,
    url: OFAC_PROGRAMMES_URL,
    source: 'ofac-sdn',
    source_url: sourceUrl,
  }));
  return { records: withManifest<OfacSdnRecord>([...programmeRecords, ...vessels, ...entities]), problems };
}
