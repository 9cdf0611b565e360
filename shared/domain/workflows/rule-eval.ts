/** Evaluating workflow rules (checked when saved: shared/domain/workflows/rules.ts) with json-logic-js. */
import jsonLogic from 'json-logic-js';
import type { Rule } from './rules.js';

/** Whether the rule holds for `data` (JSON Logic's truthiness); no rule always holds. */
export function ruleHolds(rule: Rule | null | undefined, data: Record<string, unknown>): boolean {
  if (!rule) return true;
  return jsonTruthy(jsonLogic.apply(rule, data));
}

/** JSON Logic's truthiness: an empty array is false, as in the specification. */
function jsonTruthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}
