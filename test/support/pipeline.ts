/**
 * How long a test waits for what the local stack does in the background (the stream poller, the
 * bus, the queues and their workers: a webhook delivered, a notification sent, a mail received)
 * before it fails. A bound for a pipeline that hangs, not a speed: on a loaded 2-core machine, with
 * the JVM and three other test files busy, a delivery that takes a second alone took over 10 s
 * (the isolation suite's seeding failed twice in four runs at a 10 s bound). With three test files
 * at once, a stream worker's count that takes 2 s alone took over 30 s behind the stream's backlog
 * (a fresh clone's npm test, 2026-11-29): the bound is 60 s, and a test's own 90 s (vitest.config.ts).
 */
export const PIPELINE_WAIT_MS = 60_000;

/** The deadline of a wait for the background pipeline that starts now. */
export const pipelineDeadline = (): number => Date.now() + PIPELINE_WAIT_MS;
