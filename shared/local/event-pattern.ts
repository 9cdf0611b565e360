/**
 * EventBridge event patterns, the subset the local runtime needs, matched the way EventBridge and
 * Lambda event filtering match them: the in-process bus routes events to subscribers with them,
 * and the local stream poller applies a worker's filter criteria (same syntax) to stream records
 * before invoking it, as the event source mapping does in AWS.
 *
 * Supported: nested objects; arrays of alternatives holding exact values (string, number,
 * boolean, null) or `{ prefix }`, `{ suffix }`, `{ "anything-but": value | values }`,
 * `{ exists: boolean }`. A field of the event that is an array matches when any of its
 * elements does. Anything else is refused when the pattern is checked, not silently ignored.
 */

import type { EventPattern, PatternValue } from '../vocabulary/event-pattern.js';

export type { EventPattern, PatternValue } from '../vocabulary/event-pattern.js';

type Scalar = string | number | boolean | null;

const OPERATORS = new Set(['prefix', 'suffix', 'anything-but', 'exists']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isScalar = (value: unknown): value is Scalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** Throws, naming the field, when the pattern uses something this matcher does not support. */
export function checkPattern(pattern: unknown, path = ''): asserts pattern is EventPattern {
  if (!isPlainObject(pattern)) throw new Error(`event pattern${path ? ` at ${path}` : ''} must be an object`);
  if (Object.keys(pattern).length === 0) throw new Error(`event pattern${path ? ` at ${path}` : ''} is empty`);
  for (const [field, value] of Object.entries(pattern)) {
    const at = path ? `${path}.${field}` : field;
    if (Array.isArray(value)) {
      if (value.length === 0) throw new Error(`event pattern at ${at}: an empty list matches nothing`);
      for (const alternative of value) {
        if (isScalar(alternative)) continue;
        if (!isPlainObject(alternative))
          throw new Error(`event pattern at ${at}: unsupported value ${JSON.stringify(alternative)}`);
        const [operator, ...more] = Object.keys(alternative);
        if (!operator || more.length > 0 || !OPERATORS.has(operator)) {
          throw new Error(`event pattern at ${at}: unsupported matcher ${JSON.stringify(alternative)}`);
        }
      }
    } else {
      checkPattern(value, at);
    }
  }
}

/** Whether `event` matches `pattern` (every field of the pattern must match). */
export function matchesPattern(pattern: EventPattern, event: unknown): boolean {
  if (!isPlainObject(event)) return false;
  for (const [field, expected] of Object.entries(pattern)) {
    const present = Object.hasOwn(event, field);
    const actual = event[field];
    if (Array.isArray(expected)) {
      if (!matchesField(expected as readonly PatternValue[], present, actual)) return false;
    } else if (!present || !matchesPattern(expected as EventPattern, actual)) {
      return false;
    }
  }
  return true;
}

function matchesField(alternatives: readonly PatternValue[], present: boolean, actual: unknown): boolean {
  return alternatives.some((alternative) => {
    if (isPlainObject(alternative) && 'exists' in alternative) {
      // `exists` looks at leaves: an object is not a value.
      return alternative.exists === (present && !isPlainObject(actual));
    }
    if (!present) return false;
    const values = Array.isArray(actual) ? (actual as unknown[]) : [actual];
    return values.some((value) => matchesValue(alternative, value));
  });
}

function matchesValue(alternative: PatternValue, value: unknown): boolean {
  if (!isPlainObject(alternative)) return value === alternative;
  if ('prefix' in alternative) return typeof value === 'string' && value.startsWith(alternative.prefix);
  if ('suffix' in alternative) return typeof value === 'string' && value.endsWith(alternative.suffix);
  if ('anything-but' in alternative) {
    const excluded = alternative['anything-but'];
    const list: readonly Scalar[] = Array.isArray(excluded) ? excluded : [excluded as Scalar];
    return isScalar(value) && !list.includes(value);
  }
  return false;
}
