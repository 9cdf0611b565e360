/**
 * What valid JSON (or a valid query) may still carry that no field should hold, refused with 422
 * and the `loc` of each: keys that name JavaScript's object machinery (`__proto__`,
 * `constructor`, `prototype`: harmless in a parsed object, dangerous the moment code merges it
 * into another), NUL characters (cut strings short in C libraries, logs and terminals) and
 * unpaired UTF-16 surrogates (not text: no UTF-8 encoding, so other systems would store
 * replacement characters or refuse them).
 */
import type { Loc, ValidationIssue } from '../errors.js';

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Enough to say what is wrong without answering a hostile body at length. */
const MAX_ISSUES = 20;

function textIssue(value: string, loc: Loc): ValidationIssue | undefined {
  if (value.includes('\u0000')) return { loc, msg: 'must not contain the NUL character', type: 'string_nul' };
  if (!value.isWellFormed())
    return { loc, msg: 'must be valid Unicode text (an unpaired surrogate was found)', type: 'string_unicode' };
  return undefined;
}

/** A value still to look at: reached from `parent` by `key` (none for the value itself). */
interface Visit {
  value: unknown;
  key?: string | number;
  parent?: Visit;
}

/** The loc of a visit: the parents' keys, read up the chain only when there is an issue to place. */
function locOf(visit: Visit, root: Loc): Loc {
  const keys: (string | number)[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) keys.push(v.key);
  return [...root, ...keys.reverse()] as Loc;
}

/**
 * The problems of a parsed JSON value at `loc` (the body), walking every level in document order
 * with a stack of its own (no recursion: the depth of the value costs no call stack).
 */
export function unsafeJsonIssues(value: unknown, loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Visit[] = [{ value }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const visit = stack.pop()!;
    const { key, value: v } = visit;
    if (typeof key === 'string') {
      if (RESERVED_KEYS.has(key)) {
        issues.push({ loc: locOf(visit, loc), msg: 'is a reserved name', type: 'reserved_key' });
        continue;
      }
      const issue = textIssue(key, locOf(visit, loc));
      if (issue) {
        issues.push({ ...issue, msg: `names a field with text that ${issue.msg}` });
        continue;
      }
    }
    if (typeof v === 'string') {
      const issue = textIssue(v, locOf(visit, loc));
      if (issue) issues.push(issue);
    } else if (Array.isArray(v)) {
      // Pushed last first, so they are popped in order.
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: visit });
    } else if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ value: (v as Record<string, unknown>)[keys[i]!], key: keys[i], parent: visit });
    }
  }
  return issues;
}

/** The problems of decoded path or query parameters. */
export function unsafeParameterIssues(
  values: Record<string, string | undefined> | null | undefined,
  part: 'path' | 'query',
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(values ?? {})) {
    if (RESERVED_KEYS.has(name)) issues.push({ loc: [part, name], msg: 'is a reserved name', type: 'reserved_key' });
    else if (value !== undefined) {
      const issue = textIssue(value, [part, name]);
      if (issue) issues.push(issue);
    }
  }
  return issues;
}
