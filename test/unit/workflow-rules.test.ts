/**
 * Workflow rules (shared/domain/workflows/rules.ts): the JSON Logic that conditions and steps'
 * `if` are written in. The rules below are the examples of jsonlogic.com's own documentation
 * (operations page), which a saved rule must accept and evaluate as documented; and what the
 * check refuses because json-logic-js would do it.
 */
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../shared/errors.js';
import { ruleHolds } from '../../shared/domain/workflows/rule-eval.js';
import { checkRule } from '../../shared/domain/workflows/rules.js';

/** [rule, data, what jsonlogic.com documents it gives (truthy or not)] */
const DOCUMENTED: [Record<string, unknown>, Record<string, unknown>, boolean][] = [
  [{ '==': [1, 1] }, {}, true],
  [{ and: [true, false] }, {}, false],
  [{ '<': [0, { var: 'temp' }, 100] }, { temp: 37 }, true],
  [{ in: ['Spring', 'Springfield'] }, {}, true],
  [{ in: ['Ringo', ['John', 'Paul', 'George', 'Ringo']] }, {}, true],
  [{ '!': [true] }, {}, false],
  [{ missing: ['a', 'b'] }, { a: 'apple', c: 'carrot' }, true],
  [
    { some: [{ var: 'pies' }, { '==': [{ var: 'filling' }, 'apple'] }] },
    { pies: [{ filling: 'pumpkin' }, { filling: 'apple' }] },
    true,
  ],
  [{ all: [[1, 2, 3], { '>': [{ var: '' }, 0] }] }, {}, true],
  [{ '>=': [{ var: 'event.threat_score' }, 0.6] }, { event: { threat_score: 0.72 } }, true],
  // JSON Logic's truthiness: an empty array is false.
  [{ filter: [[1, 2], { '>': [{ var: '' }, 5] }] }, {}, false],
];

const refusal = (rule: unknown) => {
  try {
    checkRule(rule, ['body', 'conditions']);
  } catch (err) {
    if (err instanceof RequestValidationError) return err.issues[0];
    throw err;
  }
  return null;
};

describe('workflow rules', () => {
  it.each(DOCUMENTED)('accepts and evaluates the documented %j', (rule, data, holds) => {
    expect(refusal(rule)).toBeNull();
    expect(ruleHolds(rule, data)).toBe(holds);
  });

  it('refuses operators outside the list (log prints, method calls), naming where', () => {
    expect(refusal({ and: [true, { log: 'x' }] })).toMatchObject({ loc: ['body', 'conditions', 'and', 1, 'log'] });
    expect(refusal({ method: [{ var: 'a' }, 'toString'] })).toMatchObject({ loc: ['body', 'conditions', 'method'] });
  });

  it("refuses paths into an object's prototype, and objects that are not one operation", () => {
    expect(refusal({ var: 'event.constructor.name' })).toMatchObject({ loc: ['body', 'conditions', 'var'] });
    expect(refusal({ '==': [{ var: ['__proto__'] }, 1] })).toMatchObject({
      loc: ['body', 'conditions', '==', 0, 'var'],
    });
    expect(refusal({ '==': [1, 1], '!=': [1, 2] })).toMatchObject({ type: 'value_error' });
  });

  it('refuses rules nested too deep or too large', () => {
    let deep: Record<string, unknown> = { var: 'a' };
    for (let i = 0; i < 20; i++) deep = { '!': [deep] };
    expect(refusal(deep)).toMatchObject({ type: 'too_deep' });
    expect(refusal({ in: [{ var: 'a' }, Array.from({ length: 2000 }, (_, i) => `value-${i}`)] })).toMatchObject({
      type: 'too_large',
    });
  });

  it('no rule always holds', () => {
    expect(ruleHolds(null, {})).toBe(true);
  });
});
