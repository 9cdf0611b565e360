import type { IncidentSeverity } from './incidents.js';

/** What a threat the caller may not see (unknown, or another tenant's) is answered with. */
export const THREAT_NOT_FOUND = 'Threat not found';

/** What an event stores of each definition it matched (`matched_signatures`). */
export interface SignatureMatch {
  library_id: string;
  definition_id: string;
  name: string;
  severity: IncidentSeverity;
  weight: number;
  /** The zone whose conditions held, when the definition has any; else the event's first zone, or null. */
  zone_id: string | null;
}

/**
 * Threats a type or environment filter of the threat list reads at most in its window before
 * filtering: a threat is one definition in one zone, so a tenant has few (definitions times zones).
 */
export const THREAT_FILTER_READ = 2000;
