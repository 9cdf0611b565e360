/**
 * Deep JSON (issue 34, item 3): the depth of JSON text is read before it is parsed, in one pass
 * and without recursion, and the walk over a parsed body keeps its own stack, so no depth
 * overflows the call stack.
 */
import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../shared/json-depth.js';
import { unsafeJsonIssues } from '../../shared/http/unsafe-input.js';

const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const objects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('jsonNestsDeeperThan', () => {
  it('takes arrays and objects nested up to the limit and refuses one level more', () => {
    for (const nest of [arrays, objects]) {
      expect(jsonNestsDeeperThan(nest(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
      expect(jsonNestsDeeperThan(nest(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
      expect(jsonNestsDeeperThan(nest(10_000), MAX_JSON_DEPTH)).toBe(true);
    }
    // Mixed: an object in an array in an object is three levels.
    expect(jsonNestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[{"b":1}]}', 2)).toBe(true);
    expect(jsonNestsDeeperThan('1', 0)).toBe(false);
    expect(jsonNestsDeeperThan('{}', 0)).toBe(true);
  });

  it('counts depth, not brackets: siblings do not add up', () => {
    const wide = `[${Array.from({ length: 1000 }, () => '{"a":[1,2]}').join(',')}]`;
    expect(jsonNestsDeeperThan(wide, 3)).toBe(false);
    expect(jsonNestsDeeperThan(wide, 2)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(`{"a":"${'[{'.repeat(1000)}"}`, 1)).toBe(false);
    expect(jsonNestsDeeperThan(`{"${'['.repeat(100)}":1}`, 1)).toBe(false);
    // An escaped quote does not end the string: the brackets after it are still text.
    expect(jsonNestsDeeperThan(`["say \\"${'['.repeat(100)}\\" twice"]`, 1)).toBe(false);
    // An escaped backslash does end it: the quote after it closes the string, the brackets count.
    expect(jsonNestsDeeperThan(`["C:\\\\",${arrays(3)}]`, 3)).toBe(true);
    expect(jsonNestsDeeperThan(`["C:\\\\",${arrays(3)}]`, 4)).toBe(false);
    // A unicode escape of a quote is no quote.
    expect(jsonNestsDeeperThan(`["\\u0022${'['.repeat(10)}"]`, 1)).toBe(false);
  });

  it('stray closing brackets do not buy depth for what follows', () => {
    expect(jsonNestsDeeperThan(']'.repeat(100) + arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('agrees with JSON.parse on valid text: what it takes, JSON.parse reads', () => {
    const text = `{"a":[${objects(MAX_JSON_DEPTH - 2)}],"s":"]]]}}}"}`;
    expect(jsonNestsDeeperThan(text, MAX_JSON_DEPTH)).toBe(false);
    expect(() => JSON.parse(text) as unknown).not.toThrow();
  });
});

describe('unsafeJsonIssues', () => {
  it('walks any depth without recursion and places what it finds', () => {
    let value: unknown = JSON.parse('{"constructor":1}');
    for (let i = 0; i < 100_000; i++) value = [value];
    const issues = unsafeJsonIssues(value, ['body']);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.type).toBe('reserved_key');
    expect(issues[0]!.loc).toHaveLength(1 + 100_000 + 1);
    expect(issues[0]!.loc.slice(0, 3)).toEqual(['body', 0, 0]);
    expect(issues[0]!.loc.at(-1)).toBe('constructor');
  });

  it('reports in document order, with the loc of each', () => {
    const value: unknown = JSON.parse(
      '{"a":[{"ok":"fine"},{"__proto__":{"deeper":"\\u0000"}}],"b":"x\\u0000","c\\ud800":1,"prototype":{},"d":["\\udfff"]}',
    );
    expect(unsafeJsonIssues(value, ['body'])).toEqual([
      { loc: ['body', 'a', 1, '__proto__'], msg: 'is a reserved name', type: 'reserved_key' },
      { loc: ['body', 'b'], msg: 'must not contain the NUL character', type: 'string_nul' },
      {
        loc: ['body', 'c\ud800'],
        msg: 'names a field with text that must be valid Unicode text (an unpaired surrogate was found)',
        type: 'string_unicode',
      },
      { loc: ['body', 'prototype'], msg: 'is a reserved name', type: 'reserved_key' },
      {
        loc: ['body', 'd', 0],
        msg: 'must be valid Unicode text (an unpaired surrogate was found)',
        type: 'string_unicode',
      },
    ]);
  });

  it('stops at 20 issues', () => {
    const value = Array.from({ length: 50 }, () => 'a\u0000');
    const issues = unsafeJsonIssues(value, ['body']);
    expect(issues).toHaveLength(20);
    expect(issues.at(-1)!.loc).toEqual(['body', 19]);
  });
});
