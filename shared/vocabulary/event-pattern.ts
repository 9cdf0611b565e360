/**
 * EventBridge event patterns as data: the syntax of a worker's trigger (shared/workers.ts), which
 * the CDK stack hands to EventBridge and Lambda event filtering and the local runtime matches
 * itself (shared/local/event-pattern.ts), the subset it supports: nested objects; arrays of
 * alternatives holding exact values or `{ prefix }`, `{ suffix }`, `{ "anything-but" }`,
 * `{ exists }`.
 */
export type EventPattern = { [field: string]: EventPattern | readonly PatternValue[] };

type Scalar = string | number | boolean | null;
export type PatternValue =
  | Scalar
  | { prefix: string }
  | { suffix: string }
  | { 'anything-but': Scalar | readonly Scalar[] }
  | { exists: boolean };
