/**
 * How the test run starts its two shared stacks, the sources' and the bundles' (each in a
 * stack-process.ts child of vitest's main process: global-setup.ts).
 */
import type { LocalStackOptions } from '../../shared/local/stack.js';

export const SHARED_STACK = {
  // In memory: nothing of a run outlives it.
  persist: false,
  // No schedule timers: test/integration/sla-scheduler.test.ts runs the SLA scheduler itself.
  schedules: false,
} as const satisfies Partial<LocalStackOptions>;
