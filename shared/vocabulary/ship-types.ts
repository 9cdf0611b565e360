/**
 * The AIS "type of ship and cargo type" codes (ITU-R M.1371-5, annex 8, table 53), grouped into
 * categories, with the speed above which a ship of the category is not doing what ships of its
 * kind normally do (used to flag a speed anomaly in a position report).
 *
 * Table 53 in short: 0 not available; 1..19 reserved; first digit 2 wing in ground (WIG) craft,
 * 4 high-speed craft (HSC), 6 passenger, 7 cargo, 8 tanker, 9 other, with the second digit saying
 * what the ship carries (0 all ships of the type, 1..4 dangerous goods, harmful substances or
 * marine pollutants of IMO category X, Y, Z, OS, 5..8 reserved, 9 no additional information);
 * 30..39 and 50..59 are single kinds of vessel (fishing, towing, pilot, tug, ...). Anything
 * outside 0..99 (the field has 8 bits; 100..255 are reserved) or absent reads as `unknown`.
 *
 * WIG craft (20..29) are put with high-speed craft: IMO's interim guidelines for WIG craft build on
 * the HSC Code, and both go well above displacement-ship speeds.
 *
 * The speeds (`typicalSpeedKnots.max`) are the upper end of the design (service) speeds of the
 * class, rounded up, not a legal limit; a ship above it is unusual for its kind, not proof of
 * anything. Figures from published comparisons of ship speeds: service speeds of 12..30 knots for
 * merchant ships, container ships and vehicle carriers the fastest at 20..25, bulk carriers and
 * tankers 13..19 (LNG carriers about 19..20) (maritimepage.com "The speed of a cargo ship at sea",
 * casualnavigation.com "Cargo ship speed comparison"); Queen Mary 2, the fastest liner in
 * service, 30 knots (casualnavigation.com); the fastest high-speed ferry, HSC Francisco,
 * 58 knots (maritimepage.com). The rest are the usual ranges of those classes: fishing vessels
 * and tugs free-running at 12..15 knots, trailing suction hopper dredgers about 15, pilot boats
 * and rescue lifeboats 25..30, patrol and interceptor craft of the coastguard and police up to
 * about 45, warships 30..35 with fast attack craft about 40, sailing yachts rarely above 15 on
 * passage, motor pleasure craft up to about 40. Unknown types get a bound only a fast craft
 * passes.
 */

export type ShipCategory =
  | 'fishing'
  | 'towing'
  | 'dredging'
  | 'military'
  | 'sailing'
  | 'pleasure'
  | 'high_speed_craft'
  | 'pilot'
  | 'sar'
  | 'tug'
  | 'law_enforcement'
  | 'passenger'
  | 'cargo'
  | 'tanker'
  | 'other'
  | 'unknown';

export interface ShipType {
  /** The code as reported, or null when none was. */
  code: number | null;
  category: ShipCategory;
  /** Table 53's wording for the code. */
  description: string;
  /** The category's normal service-speed bound (CATEGORY_SPEED_KNOTS). */
  typicalSpeedKnots: { max: number };
}

/** The upper end of the normal service speed of each category, in knots (see the top of the file). */
export const CATEGORY_SPEED_KNOTS: Readonly<Record<ShipCategory, { max: number }>> = {
  fishing: { max: 15 },
  towing: { max: 15 },
  dredging: { max: 15 },
  military: { max: 40 },
  sailing: { max: 15 },
  pleasure: { max: 40 },
  high_speed_craft: { max: 60 },
  pilot: { max: 30 },
  sar: { max: 30 },
  tug: { max: 15 },
  law_enforcement: { max: 45 },
  passenger: { max: 30 },
  cargo: { max: 25 },
  tanker: { max: 20 },
  other: { max: 30 },
  unknown: { max: 50 },
};

/** What the second digit says a ship of types 20..29 and 40..99 carries. */
const CARRIES = [
  'all ships of this type',
  'carrying DG, HS or MP, IMO hazard or pollutant category X',
  'carrying DG, HS or MP, IMO hazard or pollutant category Y',
  'carrying DG, HS or MP, IMO hazard or pollutant category Z',
  'carrying DG, HS or MP, IMO hazard or pollutant category OS',
  'reserved for future use',
  'reserved for future use',
  'reserved for future use',
  'reserved for future use',
  'no additional information',
] as const;

/** The first digits that name a class whose second digit says what it carries. */
const CLASSES: Readonly<Record<number, { name: string; category: ShipCategory }>> = {
  2: { name: 'Wing in ground (WIG)', category: 'high_speed_craft' },
  4: { name: 'High-speed craft (HSC)', category: 'high_speed_craft' },
  6: { name: 'Passenger ship', category: 'passenger' },
  7: { name: 'Cargo ship', category: 'cargo' },
  8: { name: 'Tanker', category: 'tanker' },
  9: { name: 'Other type of ship', category: 'other' },
};

/** The codes 30..39 and 50..59, each a kind of vessel of its own. */
const SINGLE_KINDS: Readonly<Record<number, { description: string; category: ShipCategory }>> = {
  30: { description: 'Fishing', category: 'fishing' },
  31: { description: 'Towing', category: 'towing' },
  32: { description: 'Towing: length of the tow exceeds 200 m or breadth exceeds 25 m', category: 'towing' },
  33: { description: 'Engaged in dredging or underwater operations', category: 'dredging' },
  34: { description: 'Engaged in diving operations', category: 'other' },
  35: { description: 'Engaged in military operations', category: 'military' },
  36: { description: 'Sailing', category: 'sailing' },
  37: { description: 'Pleasure craft', category: 'pleasure' },
  38: { description: 'Reserved for future use', category: 'unknown' },
  39: { description: 'Reserved for future use', category: 'unknown' },
  50: { description: 'Pilot vessel', category: 'pilot' },
  51: { description: 'Search and rescue vessel', category: 'sar' },
  52: { description: 'Tug', category: 'tug' },
  53: { description: 'Port tender', category: 'other' },
  54: { description: 'Anti-pollution equipment', category: 'other' },
  55: { description: 'Law enforcement', category: 'law_enforcement' },
  56: { description: 'Spare - for assignment to local vessels', category: 'other' },
  57: { description: 'Spare - for assignment to local vessels', category: 'other' },
  58: { description: 'Medical transport', category: 'other' },
  59: { description: 'Noncombatant ship according to RR Resolution No. 18', category: 'other' },
};

/** The category, table 53's wording and the category's speed bound for an AIS ship-and-cargo type code. */
export function shipTypeOf(code: number | null): ShipType {
  const { category, description } = classify(code);
  return { code, category, description, typicalSpeedKnots: { ...CATEGORY_SPEED_KNOTS[category] } };
}

function classify(code: number | null): { category: ShipCategory; description: string } {
  if (code === null || !Number.isInteger(code)) return { category: 'unknown', description: 'Not available' };
  if (code === 0) return { category: 'unknown', description: 'Not available (default)' };
  if (code < 0 || code > 99)
    return { category: 'unknown', description: 'Not a type of table 53 (reserved for future use)' };
  if (code < 20) return { category: 'unknown', description: 'Reserved for future use' };
  const single = SINGLE_KINDS[code];
  if (single) return single;
  const shipClass = CLASSES[Math.floor(code / 10)]!;
  return { category: shipClass.category, description: `${shipClass.name}, ${CARRIES[code % 10]!}` };
}

/**
 * What a vessel says it is in AIS (static data, types 5 and 24, and part of a type 19 position
 * report): the decoder's output and the vessel's stored identity share it.
 */
export interface ShipIdentity {
  name: string | null;
  call_sign: string | null;
  imo: number | null;
  /** ITU-R M.1371 "type of ship and cargo type" (this module's table 53); null when not available. */
  ship_type: number | null;
  /** Metres, from the reference point to bow, stern, port and starboard. */
  dimensions: { to_bow: number; to_stern: number; to_port: number; to_starboard: number } | null;
  draught_m: number | null;
  destination: string | null;
}
