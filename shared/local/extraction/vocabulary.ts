/**
 * The offline extractor's keyword tables. Ordered: the first matching type wins, so the more
 * serious kinds come first ("smoke near an intruder" is a fire before it is an intrusion). A word
 * in `ambiguous` has common other senses ("fire exit", "a shot of the gate", "someone's van"): heard
 * once and nothing else of its kind, it does not decide the type; the draft asks instead.
 */
import type { IncidentSeverity } from '../../domain/incidents/index.js';
import type { IncidentType } from '../../adapters/extraction/fields.js';

export const TYPE_RULES: ReadonlyArray<{
  type: IncidentType;
  severity: IncidentSeverity;
  pattern: RegExp;
  ambiguous?: readonly string[];
}> = [
  {
    type: 'armed_threat',
    severity: 'critical',
    pattern: /\b(gun|guns|armed|weapons?|knife|knives|shots?|shooting|firearm)\b/,
    ambiguous: ['shot', 'shots'],
  },
  { type: 'fire', severity: 'critical', pattern: /\b(fire|smoke|flames?|burning|on fire)\b/, ambiguous: ['fire'] },
  { type: 'medical', severity: 'high', pattern: /\b(injured|hurt|unconscious|bleeding|collapsed|medical)\b/ },
  {
    type: 'intrusion',
    severity: 'high',
    pattern:
      /\b(intruders?|break[- ]?in|broke in|breaking in|forced|trespass\w*|inside the (building|warehouse|office))\b/,
    ambiguous: ['forced'],
  },
  {
    type: 'perimeter_breach',
    severity: 'high',
    pattern: /\b(climb\w* (over|through|the)|cut (the )?fence|hole in the fence|breach\w*|jump\w* (over|the))\b/,
  },
  {
    type: 'theft',
    severity: 'high',
    pattern: /\b(stole|stolen|steal\w*|theft|robbery|robbed|taking)\b/,
    ambiguous: ['taking'],
  },
  {
    type: 'vandalism',
    severity: 'medium',
    pattern: /\b(graffiti|vandal\w*|smash\w*|damag\w*|broken)\b/,
    ambiguous: ['broken'],
  },
  { type: 'drone', severity: 'medium', pattern: /\bdrones?\b/ },
  { type: 'vessel', severity: 'medium', pattern: /\b(boats?|vessels?|ships?|dinghy)\b/ },
  {
    type: 'suspicious_activity',
    severity: 'medium',
    pattern: /\b(suspicious|loiter\w*|lurk\w*|unknown (person|man|woman|people)|someone)\b/,
    ambiguous: ['someone'],
  },
  { type: 'alarm', severity: 'medium', pattern: /\balarms?\b/ },
  { type: 'vehicle', severity: 'low', pattern: /\b(vehicles?|cars?|trucks?|vans?|motorbikes?)\b/ },
];

/** Words that override the type's usual severity, most serious first. */
export const SEVERITY_WORDS: ReadonlyArray<{ severity: IncidentSeverity; pattern: RegExp }> = [
  { severity: 'critical', pattern: /\b(critical|emergency|life[- ]threatening)\b/ },
  { severity: 'high', pattern: /\b(urgent|serious|dangerous|immediately)\b/ },
  { severity: 'low', pattern: /\b(minor|low priority|no danger|not urgent)\b/ },
];

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  single: 1,
  two: 2,
  couple: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

/** Singular and plural nouns for people and vehicles. */
export const PERSON_NOUNS = /(person|persons|people|man|men|woman|women|individuals?|intruders?|guys?|kids?|someone)/;
export const VEHICLE_NOUNS = /(vehicles?|cars?|trucks?|vans?|motorbikes?|motorcycles?|bikes?|drones?|boats?|vessels?)/;

/** Prepositions that start a place ("near gate four", "at the north fence"). */
export const PLACE_PREPOSITIONS = /\b(near|at|by|behind|beside|outside|inside|along|over|next to|in front of|on)\b/;
/** Nouns that make a phrase a place. */
export const PLACE_NOUNS =
  /\b(gates?|fences?|doors?|walls?|windows?|roof|entrance|exit|parking|lot|building|perimeter|camera|road|yard|dock|warehouse|office|lobby|corner|side|block|floor|car park|loading bay|reception|pier|shore)\b/;

/** When it happened, in the reporter's words. */
export const TIME_PATTERNS: readonly RegExp[] = [
  /\b((?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|a few|an?) (?:minutes?|hours?) ago)\b/,
  /\b(at (?:\d{1,2}[:.]\d{2}|\d{1,2} ?(?:am|pm)|noon|midnight))\b/,
  /\b(just now|right now|yesterday(?: \w+)?|this (?:morning|afternoon|evening)|tonight|last night)\b/,
];
/** The present tense of a live report: it is happening as it is reported. */
export const ONGOING =
  /\b(there (?:is|are)|i (?:can )?see|we (?:can )?see|is (?:\w+ing)|are (?:\w+ing)|currently|now)\b/;
