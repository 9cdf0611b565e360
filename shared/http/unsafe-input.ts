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

/** The problems of a parsed JSON value at `loc` (the body), walking every level. */
export function unsafeJsonIssues(value: unknown, loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (v: unknown, at: Loc) => {
    if (issues.length >= MAX_ISSUES) return;
    if (typeof v === 'string') {
      const issue = textIssue(v, at);
      if (issue) issues.push(issue);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...at, i] as Loc));
    } else if (v && typeof v === 'object') {
      for (const key of Object.keys(v)) {
        const keyLoc = [...at, key] as Loc;
        if (RESERVED_KEYS.has(key)) issues.push({ loc: keyLoc, msg: 'is a reserved name', type: 'reserved_key' });
        else {
          const issue = textIssue(key, keyLoc);
          if (issue)
            issues.push({ ...issue, msg: `names a field with text that ${issue.msg.replace(/^must/, 'must')}` });
          else walk((v as Record<string, unknown>)[key], keyLoc);
        }
        if (issues.length >= MAX_ISSUES) return;
      }
    }
  };
  walk(value, loc);
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
