/**
 * The check every agent's code path makes before acting for a tenant (shared/vocabulary/agents.ts):
 * light, so the hot paths (ingest, the workers) carry nothing else of the agents.
 */
import { agentSettingsFrom, getAgentSettings } from '../../db/agents.js';
import type { Prefetched } from '../../db/read-batch.js';

/** How long a container trusts the agent settings it read: a switch reaches every worker within this. */
export const AGENT_CACHE_MS = 30_000;

const cache = new Map<string, { atMs: number; disabled: Promise<readonly string[]> }>();

/** Whether the agent works for the tenant (switched on, the default). */
export async function agentEnabled(tenantId: string, agentId: string, nowMs = Date.now()): Promise<boolean> {
  let entry = cache.get(tenantId);
  if (!entry || nowMs - entry.atMs >= AGENT_CACHE_MS) {
    if (cache.size >= 10_000) cache.clear();
    const disabled = getAgentSettings(tenantId).then((s) => s.disabled);
    entry = { atMs: nowMs, disabled };
    cache.set(tenantId, entry);
    // A failed read is not kept.
    disabled.catch(() => cache.delete(tenantId));
  }
  return !(await entry.disabled).includes(agentId);
}

/** The agents a tenant switched off, among items a request read in one batch (with `agentSettingsKey`). */
export function disabledAgentsFrom(read: Prefetched, tenantId: string): readonly string[] {
  return agentSettingsFrom(read, tenantId)?.disabled ?? [];
}

/** After a switch, this container reads the settings again at once. */
export function forgetAgentSettings(tenantId: string): void {
  cache.delete(tenantId);
}
