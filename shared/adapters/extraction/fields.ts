/**
 * What a spoken report becomes: the incident's fields, what is still missing, and the follow-up
 * questions that ask for it. Shared by both extractors, so the rules for "missing" and the
 * questions are the same whether a model or the offline rules filled the fields.
 */
import { INCIDENT_SEVERITIES, type IncidentSeverity } from '../../vocabulary/incidents.js';

/** What kind of incident; documented here because both extractors and the tool schema use it. */
export const INCIDENT_TYPES = [
  'intrusion',
  'perimeter_breach',
  'suspicious_activity',
  'armed_threat',
  'fire',
  'theft',
  'vandalism',
  'medical',
  'drone',
  'vessel',
  'vehicle',
  'alarm',
  'other',
] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

export interface IncidentFields {
  title?: string;
  type?: IncidentType;
  severity?: IncidentSeverity;
  location_text?: string;
  occurred_at_text?: string;
  people?: string[];
  vehicles?: string[];
  description?: string;
}

export interface Extraction {
  fields: IncidentFields;
  /** Names of the fields a draft still needs. */
  missing: string[];
  /** One question per missing field, in the same order. */
  questions: string[];
  /** Words heard that were not relied on (their fields' questions name them); kept with the draft. */
  doubts: Doubt[];
}

/** What the recogniser knew about its own transcript. */
export interface TranscriptHints {
  /** Words it was unsure of (shared/adapters/speech/types.ts): none of them sets a type or severity alone. */
  unsureWords?: readonly string[];
}

/** A word heard that could have set a field but was not relied on: asked back instead. */
export interface Doubt {
  field: 'type' | 'severity';
  word: string;
}

export interface IncidentFieldExtractor {
  extract(transcript: string, hints?: TranscriptHints): Promise<Extraction>;
}

export interface IncidentSummarizer {
  /** A short plain-text summary for operators, written when an incident is finalized. */
  summarize(input: { fields: IncidentFields; transcript: string }): Promise<string>;
}

/** Both jobs; each implementation does both. */
export type IncidentAi = IncidentFieldExtractor & IncidentSummarizer;

/**
 * The fields a draft needs before it can be finalized, and how to ask for each. People and vehicles
 * are not here: a report may rightly involve none.
 */
const QUESTIONS: ReadonlyArray<readonly [keyof IncidentFields, string]> = [
  ['title', 'What happened, in a few words?'],
  ['type', 'What kind of incident is it (for example intrusion, suspicious activity, fire)?'],
  ['severity', 'How serious is it: low, medium, high or critical?'],
  ['location_text', 'Where exactly did it happen?'],
  ['occurred_at_text', 'When did it happen?'],
  ['description', 'Can you describe what you saw?'],
];

/**
 * The missing fields and their questions. A field left empty because its only evidence was a doubt
 * asks about the word heard ("We heard \"fire\" but cannot be sure: ...").
 */
export function withQuestions(fields: IncidentFields, doubts: readonly Doubt[] = []): Extraction {
  const open = QUESTIONS.filter(([name]) => !fields[name]);
  const ask = (name: keyof IncidentFields, question: string) => {
    const heard = doubts.filter((d) => d.field === name).map((d) => `"${d.word}"`);
    return heard.length > 0 ? `We heard ${heard.join(' and ')} but cannot be sure of it. ${question}` : question;
  };
  return {
    fields,
    missing: open.map(([name]) => name),
    questions: open.map(([name, question]) => ask(name, question)),
    doubts: [...doubts],
  };
}

/** The fields as a JSON schema: the Bedrock tool's input, and the check on what a model returns. */
export const FIELDS_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string', description: 'A short title, at most 10 words.' },
    type: { type: 'string', enum: [...INCIDENT_TYPES], description: 'The kind of incident.' },
    severity: {
      type: 'string',
      enum: [...INCIDENT_SEVERITIES],
      description: 'How serious, as the report states or clearly implies.',
    },
    location_text: {
      type: 'string',
      description: 'Where it happened, in the reporter\'s words (e.g. "near gate 4 at the north fence").',
    },
    occurred_at_text: {
      type: 'string',
      description: 'When it happened, in the reporter\'s words (e.g. "ten minutes ago", "ongoing").',
    },
    people: {
      type: 'array',
      items: { type: 'string' },
      description: 'Each person or group involved, with a count (e.g. "2 people").',
    },
    vehicles: {
      type: 'array',
      items: { type: 'string' },
      description: 'Each vehicle, drone or boat involved, with a count.',
    },
    description: { type: 'string', description: 'What happened, in full sentences, only from the report.' },
  },
} as const;

const text = (v: unknown, max: number): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const t = v.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : undefined;
};
const list = (v: unknown): string[] | undefined => {
  if (!Array.isArray(v)) return undefined;
  const items = v
    .map((x) => text(x, 200))
    .filter((x): x is string => Boolean(x))
    .slice(0, 20);
  return items.length > 0 ? items : undefined;
};

/**
 * Keeps what fits the schema, drops the rest: a model's output is input like any other (an enum
 * value outside the list becomes missing, not stored).
 */
export function cleanFields(raw: unknown): IncidentFields {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const type = text(r.type, 40)?.toLowerCase();
  const severity = text(r.severity, 20)?.toLowerCase();
  const fields: IncidentFields = {
    title: text(r.title, 120),
    type: (INCIDENT_TYPES as readonly string[]).includes(type ?? '') ? (type as IncidentType) : undefined,
    severity: (INCIDENT_SEVERITIES as readonly string[]).includes(severity ?? '')
      ? (severity as IncidentSeverity)
      : undefined,
    location_text: text(r.location_text, 300),
    occurred_at_text: text(r.occurred_at_text, 120),
    people: list(r.people),
    vehicles: list(r.vehicles),
    description: text(r.description, 4000),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}
