/**
 * The threat score's fixed parts (docs/threat-score.md): what may be scored, in which contexts,
 * the seven factors, each context's weights and how much each kind of target matters in it.
 * Changing a figure changes every score: the document and the tests name them.
 */
export const SCORE_TARGET_TYPES = ['ip', 'domain', 'mmsi', 'location', 'sensor'] as const;
export type ScoreTargetType = (typeof SCORE_TARGET_TYPES)[number];

export const SCORE_CONTEXTS = ['maritime', 'security', 'infrastructure', 'defense'] as const;
export type ScoreContext = (typeof SCORE_CONTEXTS)[number];

export const SCORE_FACTORS = [
  'indicators',
  'history',
  'recency_frequency',
  'geography',
  'behaviour',
  'proximity',
  'context',
] as const;
export type ScoreFactor = (typeof SCORE_FACTORS)[number];

/** Each context's weights of the seven factors; each row sums to 1. */
export const CONTEXT_WEIGHTS: Readonly<Record<ScoreContext, Readonly<Record<ScoreFactor, number>>>> = {
  maritime: {
    indicators: 0.25,
    history: 0.15,
    recency_frequency: 0.1,
    geography: 0.1,
    behaviour: 0.2,
    proximity: 0.1,
    context: 0.1,
  },
  security: {
    indicators: 0.25,
    history: 0.2,
    recency_frequency: 0.15,
    geography: 0.1,
    behaviour: 0.1,
    proximity: 0.1,
    context: 0.1,
  },
  infrastructure: {
    indicators: 0.2,
    history: 0.15,
    recency_frequency: 0.1,
    geography: 0.1,
    behaviour: 0.1,
    proximity: 0.25,
    context: 0.1,
  },
  defense: {
    indicators: 0.25,
    history: 0.15,
    recency_frequency: 0.15,
    geography: 0.15,
    behaviour: 0.1,
    proximity: 0.1,
    context: 0.1,
  },
};

/** How much a kind of target matters in a context (0..1): the context factor is this times the strongest other factor. */
export const CONTEXT_RELEVANCE: Readonly<Record<ScoreContext, Readonly<Record<ScoreTargetType, number>>>> = {
  maritime: { mmsi: 1, location: 0.8, sensor: 0.5, ip: 0.3, domain: 0.3 },
  security: { ip: 1, domain: 1, sensor: 0.9, location: 0.7, mmsi: 0.4 },
  infrastructure: { location: 1, sensor: 1, mmsi: 0.8, ip: 0.6, domain: 0.5 },
  defense: { mmsi: 1, location: 1, ip: 0.8, domain: 0.8, sensor: 0.8 },
};

/** The figures the factors use (docs/threat-score.md). */
export const SCORE_RULES = {
  /** History, recency and frequency look back this far (days). */
  historyDays: 90,
  /** Mentions read at most (the newest). */
  historyLimit: 1000,
  /** Recency halves every this many days since the target was last named. */
  recencyHalfLifeDays: 7,
  /** Distinct days named in the last 30 that make frequency 1. */
  busyDays: 10,
  /** History: what each event, incident and signature-matching event adds (capped at 1). */
  perEvent: 0.02,
  perIncident: 0.25,
  perSignatureEvent: 0.1,
  /** Geography of an IP: a public address in an announced ASN; one in none (unrouted space). */
  routedIp: 0.2,
  unroutedIp: 0.5,
  /** Geography of a domain under a country-code TLD. */
  countryTld: 0.1,
  /** Behaviour of a vessel (7 days): each AIS gap, loitering episode, speed anomaly, and dark now. */
  vesselDays: 7,
  perGap: 0.35,
  perLoitering: 0.35,
  perSpeedAnomaly: 0.2,
  darkNow: 0.3,
  /** Behaviour at a location: loitering and gap episodes within this distance in the vessel window. */
  episodeNearM: 2_000,
  /** Proximity: an asset counts up to this distance, a line up to that one (metres), falling linearly to 0. */
  assetReachM: 5_000,
  lineReachM: 10_000,
  criticality: { critical: 1, high: 0.8, medium: 0.5, low: 0.2 } as Readonly<Record<string, number>>,
  lineKinds: { subsea_cable: 1, pipeline: 1, power_line: 1, other: 0.6, unclassified: 0.6 } as Readonly<
    Record<string, number>
  >,
  /** A sensor silent this long (minutes) behaves oddly. */
  sensorSilentMinutes: 60,
} as const;
