/** The names of an incident's states, severities and resolutions (the state machine: shared/domain/incidents/lifecycle.ts). */

export const INCIDENT_STATUSES = [
  'draft',
  'confirmed',
  'acknowledged',
  'in_progress',
  'on_hold',
  'resolved',
  'closed',
  'cancelled',
] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const INCIDENT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

/** Low 0 to critical 3: for sorting and thresholds. */
export const severityRank = (severity: IncidentSeverity): number => INCIDENT_SEVERITIES.indexOf(severity);

/** Why an incident ended, kept apart from its status. */
export const RESOLUTIONS = ['true_positive', 'false_positive', 'duplicate', 'benign', 'test'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
