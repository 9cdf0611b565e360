/**
 * Matching events against a tenant's threat definitions (docs/threat-libraries.md). Definitions
 * are compiled once per revision of the tenant's libraries (keyword patterns, indicator sets),
 * then every event of a request is matched against them in memory: no DynamoDB call per event.
 *
 * A definition matches an event when every condition it gives holds:
 * - `event_types`: the event is of one of them;
 * - zone conditions (`zone_types`, `min_security_level`, `repeat`): one and the same active zone
 *   the event falls in satisfies all of them; `repeat.count` counts the events of the event's type
 *   in that zone in the last hour, this one included;
 * - `hours`: the event occurred in that time of day, in the tenant's time zone;
 * - `keywords`: one of them appears as whole words in the description or a text of the payload;
 * - `payload`: every threshold holds on a number of the payload;
 * - `indicators`: a string or number of the payload (three levels deep) is one of them.
 *
 * Pure: no I/O, the same inputs give the same matches.
 */
import type { threatDefinitionInput } from '../../schemas/threat-libraries.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { SignatureMatch } from '../../vocabulary/threats.js';

export type { SignatureMatch } from '../../vocabulary/threats.js';
import { localMinuteOf, minutesOfDay, withinTimes } from '../local-time.js';

type DefinitionInput = InputOf<typeof threatDefinitionInput>;

/** A definition as stored: its id made, its flags defaulted. */
export type DefinitionLike = Omit<DefinitionInput, 'definition_id' | 'active' | 'indicators'> & {
  definition_id: string;
  active: boolean;
  indicators?: DefinitionInput['indicators'] | null;
};

export interface LibraryLike {
  library_id: string;
  active: boolean;
  definitions: readonly DefinitionLike[];
}

type Threshold = NonNullable<DefinitionInput['match']['payload']>[number];

export interface CompiledDefinition {
  libraryId: string;
  definition: DefinitionLike;
  types: ReadonlySet<string>;
  zoneTypes: ReadonlySet<string> | null;
  minLevel: number | null;
  repeat: number | null;
  hours: { start: number; end: number } | null;
  keywords: RegExp | null;
  thresholds: readonly Threshold[];
  indicators: { values: ReadonlySet<string>; domains: readonly string[] } | null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One pattern for all of a definition's keywords: whole words, any case, any script. */
function keywordPattern(keywords: readonly string[]): RegExp {
  const alternatives = keywords.map((k) => escape(k.trim()).replace(/\s+/g, '\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'iu');
}

const normaliseDomain = (d: string) => d.toLowerCase().replace(/\.$/, '');

/** The active definitions of the active libraries, ready to match. */
export function compileDefinitions(libraries: readonly LibraryLike[]): CompiledDefinition[] {
  return libraries
    .filter((l) => l.active)
    .flatMap((library) =>
      library.definitions
        .filter((d) => d.active)
        .map((d): CompiledDefinition => {
          const m = d.match;
          const ind = d.indicators ?? null;
          return {
            libraryId: library.library_id,
            definition: d,
            types: new Set(m.event_types),
            zoneTypes: m.zone_types ? new Set(m.zone_types) : null,
            minLevel: m.min_security_level ?? null,
            repeat: m.repeat?.count ?? null,
            hours: m.hours ? { start: minutesOfDay(m.hours.start), end: minutesOfDay(m.hours.end) } : null,
            keywords: m.keywords ? keywordPattern(m.keywords) : null,
            thresholds: m.payload ?? [],
            indicators: ind
              ? {
                  values: new Set([...(ind.ips ?? []).map((ip) => ip.toLowerCase()), ...(ind.mmsis ?? [])]),
                  domains: (ind.domains ?? []).map(normaliseDomain),
                }
              : null,
          };
        }),
    );
}

export interface MatchZone {
  zone_id: string;
  type: string;
  security_level: number;
}

export interface MatchInput {
  type: string;
  occurredAt: string;
  /** The tenant's time zone (IANA). */
  timezone: string;
  /** The active zones the event falls in. */
  zones: readonly MatchZone[];
  description: string | null;
  payload: Record<string, unknown>;
  /** Events of the event's type in a zone in the last hour, this one included. */
  repeatsInZone: (zoneId: string) => number;
}

/** Strings and numbers of a payload, three levels deep (arrays count as a level). */
function scalarsOf(value: unknown, depth = 0, out: (string | number)[] = []): (string | number)[] {
  if (typeof value === 'string' || typeof value === 'number') out.push(value);
  else if (value && typeof value === 'object' && depth < 3)
    for (const v of Object.values(value)) scalarsOf(v, depth + 1, out);
  return out;
}

function numberAt(payload: Record<string, unknown>, path: string): number | null {
  let value: unknown = payload;
  for (const part of path.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function holds(t: Threshold, n: number): boolean {
  switch (t.op) {
    case 'gt':
      return n > t.value;
    case 'gte':
      return n >= t.value;
    case 'lt':
      return n < t.value;
    case 'lte':
      return n <= t.value;
    case 'eq':
      return n === t.value;
  }
}

function carriesIndicator(
  ind: NonNullable<CompiledDefinition['indicators']>,
  scalars: readonly (string | number)[],
): boolean {
  for (const s of scalars) {
    const text = String(s).trim().toLowerCase();
    if (ind.values.has(text)) return true;
    if (typeof s !== 'string' || ind.domains.length === 0) continue;
    const host = normaliseDomain(text);
    if (ind.domains.some((d) => host === d || host.endsWith(`.${d}`))) return true;
  }
  return false;
}

/** The zone in which the definition's zone conditions hold; undefined when none does. */
function zoneFor(def: CompiledDefinition, input: MatchInput): MatchZone | null | undefined {
  if (!def.zoneTypes && def.minLevel === null && def.repeat === null) return input.zones[0] ?? null;
  return input.zones.find(
    (z) =>
      (!def.zoneTypes || def.zoneTypes.has(z.type)) &&
      (def.minLevel === null || z.security_level >= def.minLevel) &&
      (def.repeat === null || input.repeatsInZone(z.zone_id) >= def.repeat),
  );
}

/** The definitions an event matches, in the order given. */
export function matchEvent(definitions: readonly CompiledDefinition[], input: MatchInput): SignatureMatch[] {
  let scalars: (string | number)[] | null = null;
  const texts = () => (scalars ??= scalarsOf(input.payload));
  const matches: SignatureMatch[] = [];
  for (const def of definitions) {
    if (!def.types.has(input.type)) continue;
    const zone = zoneFor(def, input);
    if (zone === undefined) continue;
    if (
      def.hours &&
      !withinTimes(localMinuteOf(Date.parse(input.occurredAt), input.timezone).minutes, def.hours.start, def.hours.end)
    )
      continue;
    if (
      def.thresholds.some((t) => {
        const n = numberAt(input.payload, t.field);
        return n === null || !holds(t, n);
      })
    )
      continue;
    if (def.keywords) {
      const pattern = def.keywords;
      const said = [input.description ?? '', ...texts().filter((s): s is string => typeof s === 'string')];
      if (!said.some((s) => pattern.test(s))) continue;
    }
    if (def.indicators && !carriesIndicator(def.indicators, texts())) continue;
    const d = def.definition;
    matches.push({
      library_id: def.libraryId,
      definition_id: d.definition_id,
      name: d.name,
      severity: d.severity,
      weight: d.weight,
      zone_id: zone?.zone_id ?? null,
    });
  }
  return matches;
}

/** The factor the matches add to an event's score: their weights summed, at most 1, at weight 1. */
export function signatureFactor(matches: readonly { weight: number }[]): { value: number; weight: number } | null {
  if (matches.length === 0) return null;
  return { value: Math.min(1, Math.round(matches.reduce((sum, m) => sum + m.weight, 0) * 1000) / 1000), weight: 1 };
}
