/**
 * How the platform is: the live status (`GET /api/v1/live-status`) and the agents' state
 * (`GET /api/v1/agents`), both derived from real signals, never from a flag:
 * - probes of the dependencies (the table, the files bucket, the user pool), each within 2 s;
 * - the workers' heartbeats (shared/db/heartbeats.ts): runs, failures, last run, last failure;
 * - the queues' depths (shared/adapters/queue.ts): messages waiting, in flight, dead-lettered.
 *
 * A worker is `degraded` when its last invocation failed within the last 15 minutes, when the
 * oldest record of its last batch (in the last two minutes) had waited over a minute, when its
 * queue holds messages that waited 30 s with no run of it (stopped, or throttled to nothing), when
 * its dead-letter queue holds any, or when a scheduled worker that ran in the last day missed three
 * of its turns since; `active`
 * when it ran in the last 15 minutes; `idle` otherwise. Figures are the platform's (every tenant's
 * work together): they reveal no tenant's data.
 */
import { pingIdentityStore } from '../../adapters/cognito.js';
import { queues, type QueueDepth } from '../../adapters/queue.js';
import { pingBucket } from '../../adapters/s3.js';
import { config } from '../../config.js';
import { pingTable } from '../../db/client.js';
import { heartbeatsSince, type HeartbeatHour } from '../../db/heartbeats.js';
import { AGENTS, type AgentDef } from '../../vocabulary/agents.js';
import type { QueueId } from '../../vocabulary/queues.js';

export type WorkerStatus = 'active' | 'idle' | 'degraded';
export type ComponentStatus = 'operational' | 'degraded' | 'outage';

const DAY_MS = 86_400_000;
const RECENT_MS = 15 * 60_000;
/** A queue's visible messages with no run of its worker for this long: nothing is reading it. */
export const STALL_MS = 30_000;
const PROBE_TIMEOUT_MS = 2_000;

export interface WorkerHealth {
  worker: string;
  status: WorkerStatus;
  /** Why it is degraded; null otherwise. */
  reason: string | null;
  last_run_at: string | null;
  last_error_at: string | null;
  runs_24h: number;
  errors_24h: number;
  /** Queue workers: messages waiting or in flight; null for the others. */
  backlog: number | null;
  dead_letters: number | null;
  /** Stream and queue workers: how long the oldest record of its last batch had waited; null when unknown. */
  lag_ms: number | null;
}

/** A last batch whose oldest record waited longer than this: the worker falls behind. */
export const LAG_LIMIT_MS = 60_000;

/**
 * What the status needs of a worker (shared/workers.ts, which the edge hands in: the deployed
 * workers in AWS, with the local-only ones under `npm start`).
 */
export interface WorkerRef {
  id: string;
  trigger:
    | { kind: 'queue'; queue: QueueId }
    | { kind: 'schedule'; everyMinutes: number }
    | { kind: 'table-stream' | 'event-rule' | 'scheduler' }
    /** Work an agent does inside a request (AgentDef.inRequest): no queue, no schedule. */
    | { kind: 'request' };
}

/** The agents' in-request work, read with the workers for the agents' state. */
export const IN_REQUEST_WORK: readonly WorkerRef[] = /* @__PURE__ */ (() =>
  AGENTS.flatMap((a) => (a.inRequest ?? []).map((id) => ({ id, trigger: { kind: 'request' as const } }))))();

function healthOf(
  worker: WorkerRef,
  hours: readonly HeartbeatHour[],
  depth: QueueDepth | null,
  nowMs: number,
): WorkerHealth {
  const mine = hours.filter((h) => h.worker === worker.id);
  const latest = (field: 'last_run_at' | 'last_error_at') =>
    mine
      .map((h) => h[field])
      .filter((v): v is string => v !== null)
      .sort()
      .at(-1) ?? null;
  const lastRun = latest('last_run_at');
  const lag = mine.find((h) => h.last_run_at === lastRun)?.last_lag_ms ?? null;
  const lastError = latest('last_error_at');
  const sinceRun = lastRun ? nowMs - Date.parse(lastRun) : Infinity;
  const base = {
    worker: worker.id,
    last_run_at: lastRun,
    last_error_at: lastError,
    runs_24h: mine.reduce((n, h) => n + h.runs, 0),
    errors_24h: mine.reduce((n, h) => n + h.errors, 0),
    backlog: depth ? depth.visible + depth.in_flight : null,
    dead_letters: depth ? depth.dead_letters : null,
    lag_ms: lag,
  };
  const degraded = (reason: string): WorkerHealth => ({ ...base, status: 'degraded', reason });
  if (lastError && lastError === lastRun && sinceRun <= RECENT_MS) {
    return degraded(
      `its last run failed: ${mine.find((h) => h.last_error_at === lastError)?.last_error ?? 'an error'}`,
    );
  }
  // A fresh sign only: caught up, with nothing more to do, it clears two minutes after that batch.
  if (lag !== null && lag > LAG_LIMIT_MS && sinceRun <= 2 * 60_000)
    return degraded(`the oldest record of its last batch had waited ${Math.round(lag / 1000)} s`);
  if (depth && depth.visible > 0 && sinceRun > STALL_MS)
    return degraded(
      `${depth.visible} message${depth.visible === 1 ? ' waits' : 's wait'} with no run for over ${STALL_MS / 1000} s`,
    );
  if (depth && depth.dead_letters > 0)
    return degraded(
      `${depth.dead_letters} message${depth.dead_letters === 1 ? ' is' : 's are'} in its dead-letter queue`,
    );
  // Missed three turns after running in the last day (one that has not run since a deployment or a
  // start is idle: its first turn may not have come yet).
  if (worker.trigger.kind === 'schedule' && lastRun && sinceRun > 3 * worker.trigger.everyMinutes * 60_000) {
    return degraded(`it missed its last three turns (every ${worker.trigger.everyMinutes} min)`);
  }
  return { ...base, status: sinceRun <= RECENT_MS ? 'active' : 'idle', reason: null };
}

/** Every worker's health, from one Query of the heartbeats and the depth of each queue read by a worker. */
export async function workersHealth(workers: readonly WorkerRef[], nowMs = Date.now()): Promise<WorkerHealth[]> {
  const queueIds = [...new Set(workers.flatMap((w) => (w.trigger.kind === 'queue' ? [w.trigger.queue] : [])))];
  const [hours, depths] = await Promise.all([
    heartbeatsSince(nowMs - DAY_MS),
    Promise.all(queueIds.map(async (q) => [q, await queues().depth(q)] as const)).then(
      (entries) => new Map<string, QueueDepth>(entries),
    ),
  ]);
  return workers.map((w) =>
    healthOf(w, hours, w.trigger.kind === 'queue' ? (depths.get(w.trigger.queue) ?? null) : null, nowMs),
  );
}

// ---------------------------------------------------------------------------------------------
// Live status

export interface LiveStatus {
  status: ComponentStatus;
  checked_at: string;
  version: string;
  components: {
    name: string;
    kind: 'api' | 'dependency' | 'worker';
    status: ComponentStatus;
    detail: string | null;
    /** Workers: their own words (`active`, `idle`, `degraded`) and figures. */
    worker?: Omit<WorkerHealth, 'worker'>;
  }[];
}

const withTimeout = (p: Promise<unknown>): Promise<unknown> =>
  Promise.race([
    p,
    new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 2 s')), PROBE_TIMEOUT_MS).unref()),
  ]);

const PROBES: [name: string, probe: () => Promise<unknown>][] = [
  ['table', pingTable],
  ['storage', pingBucket],
  ['identity', pingIdentityStore],
];

/** The stream's readers and the bus's publisher, as components of their own. */
const STREAM_WORKERS = ['publish-events', 'count-analytics'];

export async function liveStatus(refs: readonly WorkerRef[], nowMs = Date.now()): Promise<LiveStatus> {
  const [probes, workers] = await Promise.all([
    Promise.allSettled(PROBES.map(([, probe]) => withTimeout(probe()))),
    workersHealth(refs, nowMs).then(
      (w) => ({ ok: true as const, w }),
      (err: unknown) => ({ ok: false as const, err }),
    ),
  ]);
  const components: LiveStatus['components'] = [{ name: 'api', kind: 'api', status: 'operational', detail: null }];
  PROBES.forEach(([name], i) => {
    const r = probes[i]!;
    // The reason's class only: an error message could carry an address.
    components.push({
      name,
      kind: 'dependency',
      status: r.status === 'fulfilled' ? 'operational' : 'outage',
      detail: r.status === 'fulfilled' ? null : 'not answering',
    });
  });
  if (workers.ok) {
    const byId = new Map(workers.w.map((h) => [h.worker, h]));
    const part = (ids: string[]): ComponentStatus =>
      ids.some((id) => byId.get(id)?.status === 'degraded') ? 'degraded' : 'operational';
    components.push({
      name: 'event-bus',
      kind: 'dependency',
      status: part(['publish-events']),
      detail: byId.get('publish-events')?.reason ?? null,
    });
    components.push({
      name: 'stream',
      kind: 'dependency',
      status: part(STREAM_WORKERS),
      detail: STREAM_WORKERS.map((id) => byId.get(id)?.reason).find(Boolean) ?? null,
    });
    for (const { worker, ...health } of workers.w) {
      components.push({
        name: `worker:${worker}`,
        kind: 'worker',
        status: health.status === 'degraded' ? 'degraded' : 'operational',
        detail: health.reason,
        worker: health,
      });
    }
  } else {
    components.push({
      name: 'workers',
      kind: 'worker',
      status: 'degraded',
      detail: 'their heartbeats or queues could not be read',
    });
  }
  const tableDown = components.find((c) => c.name === 'table')?.status === 'outage';
  const status: ComponentStatus = tableDown
    ? 'outage'
    : components.every((c) => c.status === 'operational')
      ? 'operational'
      : 'degraded';
  return { status, checked_at: new Date(nowMs).toISOString(), version: config.version, components };
}

/** Seconds an answer of the live status is kept, by the container and by caches (Cache-Control). */
export const LIVE_STATUS_MAX_AGE_SECONDS = 10;

let cached: { atMs: number; value: Promise<LiveStatus> } | undefined;

/** The live status, computed at most once per LIVE_STATUS_MAX_AGE_SECONDS in a container. */
export function cachedLiveStatus(workers: readonly WorkerRef[], nowMs = Date.now()): Promise<LiveStatus> {
  if (cached && nowMs - cached.atMs < LIVE_STATUS_MAX_AGE_SECONDS * 1000) return cached.value;
  const value = liveStatus(workers, nowMs);
  cached = { atMs: nowMs, value };
  // A failed computation is not kept.
  value.catch(() => (cached = undefined));
  return value;
}

// ---------------------------------------------------------------------------------------------
// Agents

export interface AgentView {
  agent_id: string;
  name: string;
  description: string;
  status: WorkerStatus | 'disabled';
  reason: string | null;
  enabled: boolean;
  can_disable: boolean;
  when_disabled: string | null;
  workers: string[];
  model: string | null;
  last_run_at: string | null;
  runs_24h: number;
  errors_24h: number;
  backlog: number | null;
  dead_letters: number | null;
  settings: Record<string, unknown>;
}

const RANK: Record<WorkerStatus, number> = { idle: 0, active: 1, degraded: 2 };

function modelOf(agent: AgentDef): string | null {
  if (agent.model === 'ai')
    return config.ai.mode === 'aws'
      ? `bedrock:${config.ai.bedrockModelId}`
      : 'offline extractor (rules, shared/local/extraction)';
  if (agent.model === 'speech')
    return config.speech.mode === 'aws'
      ? `amazon-transcribe:${config.speech.languageCode}`
      : 'pocketsphinx (offline, en-US)';
  return null;
}

/** An agent as the tenant sees it: its workers' health (platform figures), its switch, its model and settings. */
export function agentView(
  agent: AgentDef,
  health: readonly WorkerHealth[],
  disabled: readonly string[],
  settings: Record<string, unknown>,
): AgentView {
  const mine = health.filter((h) => agent.workers.includes(h.worker) || agent.inRequest?.includes(h.worker));
  const worst = mine.reduce<WorkerHealth | undefined>(
    (a, b) => (!a || RANK[b.status] > RANK[a.status] ? b : a),
    undefined,
  );
  const enabled = !disabled.includes(agent.id);
  const sum = (f: 'backlog' | 'dead_letters') =>
    mine.some((h) => h[f] !== null) ? mine.reduce((n, h) => n + (h[f] ?? 0), 0) : null;
  return {
    agent_id: agent.id,
    name: agent.name,
    description: agent.description,
    status: enabled ? (worst?.status ?? 'idle') : 'disabled',
    reason: enabled ? (worst?.reason ?? null) : 'switched off for this tenant',
    enabled,
    can_disable: agent.whenDisabled !== undefined,
    when_disabled: agent.whenDisabled ?? agent.required ?? null,
    workers: [...agent.workers],
    model: modelOf(agent),
    last_run_at:
      mine
        .map((h) => h.last_run_at)
        .filter((v): v is string => v !== null)
        .sort()
        .at(-1) ?? null,
    runs_24h: mine.reduce((n, h) => n + h.runs_24h, 0),
    errors_24h: mine.reduce((n, h) => n + h.errors_24h, 0),
    backlog: sum('backlog'),
    dead_letters: sum('dead_letters'),
    settings,
  };
}

export { AGENTS };
