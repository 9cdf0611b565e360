/**
 * How the test run starts its two shared stacks: the sources' (global-setup.ts, in vitest's main
 * process) and the bundles' (stack-process.ts, a child of it).
 */
import type { LocalStackOptions } from '../../shared/local/stack.js';

export const SHARED_STACK = {
  // In memory: nothing of a run outlives it.
  persist: false,
  // No schedule timers: test/integration/sla-scheduler.test.ts runs the SLA scheduler itself.
  schedules: false,
} as const satisfies Partial<LocalStackOptions>;
