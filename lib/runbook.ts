/**
 * Where an alarm's description sends the person it pages: an entry of docs/runbook.md, by the
 * anchor GitHub gives its heading. test/infra/observability.test.ts checks every anchor exists.
 */
export const RUNBOOK_PATH = 'docs/runbook.md';

export type RunbookEntry =
  | 'api-5xx-rate'
  | 'api-p99-latency'
  | 'dead-letters'
  | 'stream-iterator-age'
  | 'lambda-throttles'
  | 'webhook-exhausted'
  | 'feed-polls-failing'
  | 'audit-digests-behind';

export function runbookLink(entry: RunbookEntry): string {
  return `${RUNBOOK_PATH}#${entry}`;
}
