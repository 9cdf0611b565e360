/**
 * The offline extractor and summariser: deterministic rules over keyword tables (vocabulary.ts),
 * no model. Good enough for short spoken reports; what it cannot find becomes a question.
 */
import type { IncidentSeverity } from '../../domain/incidents/index.js';
import {
  withQuestions,
  type Doubt,
  type Extraction,
  type IncidentAi,
  type IncidentFields,
  type TranscriptHints,
} from '../../adapters/extraction/fields.js';
import {
  NUMBER_WORDS,
  ONGOING,
  PERSON_NOUNS,
  PLACE_NOUNS,
  PLACE_PREPOSITIONS,
  SEVERITY_WORDS,
  TIME_PATTERNS,
  TYPE_RULES,
  VEHICLE_NOUNS,
} from './vocabulary.js';

const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();
const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** The first clause without its "there is" / "I see" lead-in, as a title of at most ten words. */
function titleOf(text: string): string | undefined {
  const clause = text.split(/[.;!?,]| and then | but /)[0] ?? '';
  const bare = clause.replace(
    /^(?:so |okay |ok |hello |hi )?(?:there (?:is|are|was|were)|i (?:can )?(?:see|saw)|we (?:can )?(?:see|saw|have)|i want to report)\s+/i,
    '',
  );
  const words = normalise(bare)
    .replace(/^(?:a|an|the) /, '')
    .split(' ')
    .filter(Boolean)
    .slice(0, 10);
  // A title cut at ten words should not end on a little word ("... the warehouse at").
  while (words.length > 1 && /^(a|an|the|at|near|by|on|in|of|to|and|with|over|from)$/.test(words[words.length - 1]!))
    words.pop();
  return words.length > 0 ? capitalise(words.join(' ')) : undefined;
}

/**
 * The place: from the first preposition whose phrase names a place ("near gate four at the north
 * fence"), up to the end of the clause, cut after the last place word, number or direction.
 */
function locationOf(text: string): string | undefined {
  const clauses = text.split(/[.;!?,]| and | who | with | carrying /);
  for (const clause of clauses) {
    const words = clause.trim().split(' ');
    for (let i = 0; i < words.length; i++) {
      const two = `${words[i]} ${words[i + 1] ?? ''}`;
      if (!PLACE_PREPOSITIONS.test(words[i]!) && !/^(next to|in front)/.test(two)) continue;
      const span = words.slice(i, i + 14);
      let end = -1;
      span.forEach((w, j) => {
        if (
          PLACE_NOUNS.test(w) ||
          /^(\d+|one|two|three|four|five|six|seven|eight|nine|ten|north\w*|south\w*|east\w*|west\w*)$/.test(w)
        )
          end = j;
      });
      if (end > 0 && span.slice(0, end + 1).some((w) => PLACE_NOUNS.test(w))) return span.slice(0, end + 1).join(' ');
    }
  }
  // No preposition: a bare place ("gate four is open").
  const bare =
    /\b((?:(?:north|south|east|west)\w* )?(?:main |back |front |side )?(?:gate|fence|door|entrance|exit|wall|building)(?: (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten))?)\b/.exec(
      text,
    );
  return bare?.[1];
}

/** "a suspicious person" -> "1 suspicious person"; "two men" -> "2 men". */
function countsOf(text: string, nouns: RegExp): string[] | undefined {
  const numbers = Object.keys(NUMBER_WORDS).join('|');
  const pattern = new RegExp(`\\b(\\d+|${numbers})((?: [a-z]+){0,2}?) ${nouns.source}\\b`, 'g');
  const found = new Map<string, string>();
  for (const m of text.matchAll(pattern)) {
    const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : NUMBER_WORDS[m[1]!]!;
    const phrase = normalise(`${m[2] ?? ''} ${m[3]}`);
    // Direction or place words between the number and noun ("gate four at the north fence") are not counts.
    if (/\b(at|the|near|of|by|on|in)\b/.test(phrase)) continue;
    found.set(phrase, `${n} ${phrase}`);
  }
  if (found.size === 0) {
    // A noun without a count ("people climbing over"): the noun itself, count unknown.
    const bare = new RegExp(`\\b${nouns.source}\\b`).exec(text);
    if (bare && bare[1] !== 'someone') return [bare[1]!];
    if (bare) return ['1 person'];
  }
  return found.size > 0 ? [...found.values()] : undefined;
}

function timeOf(text: string): string | undefined {
  for (const pattern of TIME_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return m[1];
  }
  return ONGOING.test(text) ? 'ongoing at the time of the report' : undefined;
}

export class LocalExtractor implements IncidentAi {
  async extract(transcript: string, hints: TranscriptHints = {}): Promise<Extraction> {
    const text = normalise(transcript.toLowerCase());
    if (!text) return withQuestions({});
    const unsure = new Set(hints.unsureWords ?? []);
    const reliable = (phrase: string) => !phrase.split(' ').some((w) => unsure.has(w));
    const doubts: Doubt[] = [];
    // The first kind with reliable evidence: a word heard for sure that is not ambiguous, or an
    // ambiguous one heard twice. A kind heard only in doubt is asked back, not decided.
    const rule = TYPE_RULES.find((r) => {
      const hits = [...text.matchAll(new RegExp(r.pattern.source, 'g'))].map((m) => m[0]);
      if (hits.length === 0) return false;
      const sure = hits.filter(reliable);
      if (sure.some((h) => !r.ambiguous?.includes(h)) || sure.length > 1) return true;
      doubts.push({ field: 'type', word: hits[0]! });
      return false;
    });
    const word = SEVERITY_WORDS.map((s) => ({ s, hit: s.pattern.exec(text)?.[0] })).find((x) => x.hit !== undefined);
    if (word && !reliable(word.hit!)) doubts.push({ field: 'severity', word: word.hit! });
    const severity: IncidentSeverity | undefined =
      (word && reliable(word.hit!) ? word.s.severity : undefined) ?? rule?.severity;
    const fields: IncidentFields = {
      title: titleOf(text),
      type: rule?.type,
      severity,
      location_text: locationOf(text),
      occurred_at_text: timeOf(text),
      people: countsOf(text, PERSON_NOUNS),
      vehicles: countsOf(text, VEHICLE_NOUNS),
      description: `${capitalise(normalise(transcript))}${/[.!?]$/.test(transcript.trim()) ? '' : '.'}`,
    };
    const found = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as IncidentFields;
    return withQuestions(found, doubts);
  }

  /** One or two sentences from the fields, in a fixed pattern. */
  async summarize(input: { fields: IncidentFields; transcript: string }): Promise<string> {
    const f = input.fields;
    const what = [f.severity ? capitalise(f.severity) : undefined, f.type ? f.type.replace(/_/g, ' ') : 'incident']
      .filter(Boolean)
      .join(' ');
    const parts = [`${capitalise(what)}${f.title ? `: ${f.title}` : ''}`];
    if (f.location_text) parts.push(`location ${f.location_text}`);
    if (f.occurred_at_text) parts.push(`time ${f.occurred_at_text}`);
    if (f.people?.length) parts.push(`people ${f.people.join(', ')}`);
    if (f.vehicles?.length) parts.push(`vehicles ${f.vehicles.join(', ')}`);
    const description = f.description ?? normalise(input.transcript);
    return `${parts.join('; ')}.${description ? ` Reported: ${description}` : ''}`;
  }
}
