/**
 * The rules of workflows (a trigger's conditions, a step's `if`) in JSON Logic, evaluated by
 * json-logic-js (shared/domain/workflows/rule-eval.ts, the runner's only: the routes that save a
 * rule check it here without carrying the evaluator): a rule language that is data (stored as
 * JSON, shown back as sent, checked when saved), with evaluators in many languages, so an
 * operator's console and the runner agree.
 *
 * json-logic-js evaluates any operator it knows, `log` (which prints) included, and `var` walks
 * any property: a rule is checked when saved against the operators allowed here, and its `var`
 * paths may not reach an object's prototype.
 */
import { invalid, type Loc } from '../../errors.js';
import { MAX_RULE_BYTES, MAX_RULE_DEPTH } from '../../vocabulary/workflows.js';

export type Rule = Record<string, unknown>;

/** The operators a rule may use; the documentation in shared/schemas/workflows.ts lists them too. */
const OPERATORS = new Set([
  'and',
  'or',
  '!',
  '!!',
  'if',
  '?:',
  '==',
  '===',
  '!=',
  '!==',
  '>',
  '>=',
  '<',
  '<=',
  'var',
  'missing',
  'missing_some',
  'in',
  'some',
  'all',
  'none',
  'filter',
  'map',
  'merge',
  'cat',
  'substr',
  '+',
  '-',
  '*',
  '/',
  '%',
  'min',
  'max',
]);

/** Path segments that would reach an object's prototype. */
const UNSAFE_SEGMENT = /(^|\.)(__proto__|prototype|constructor)(\.|$)/;

/** Checks a rule as saved: 422 at the first operator not allowed, path not allowed, or excess. */
export function checkRule(rule: unknown, loc: Loc): void {
  if (Buffer.byteLength(JSON.stringify(rule)) > MAX_RULE_BYTES)
    throw invalid(loc, `is larger than ${MAX_RULE_BYTES / 1024} KB of JSON`, 'too_large');
  walk(rule, loc, 0);
}

function walk(value: unknown, loc: Loc, depth: number): void {
  if (depth > MAX_RULE_DEPTH) throw invalid(loc, `nests deeper than ${MAX_RULE_DEPTH} levels`, 'too_deep');
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, [...loc, i], depth + 1));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length !== 1)
    throw invalid(loc, 'must be an operation: an object with exactly one operator', 'value_error');
  const [operator, args] = entries[0]!;
  if (!OPERATORS.has(operator))
    throw invalid([...loc, operator], `is not an operator a rule may use (${[...OPERATORS].join(' ')})`, 'value_error');
  if (operator === 'var') {
    const path: unknown = Array.isArray(args) ? (args as unknown[])[0] : args;
    if (typeof path !== 'string' && typeof path !== 'number')
      throw invalid([...loc, operator], 'must name a path: a string such as "event.threat_score"', 'value_error');
    if (UNSAFE_SEGMENT.test(String(path)))
      throw invalid([...loc, operator], 'may not read __proto__, prototype or constructor', 'value_error');
  }
  walk(args, [...loc, operator], depth + 1);
}
