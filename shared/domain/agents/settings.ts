/**
 * A tenant's agents (shared/vocabulary/agents.ts): listed with their state (shared/domain/
 * shared/domain/operations/status.ts), switched off or on and configured by a TENANT_ADMIN, and the check the agents'
 * code paths make: `agentEnabled`, cached per container for AGENT_CACHE_MS (a switch takes effect
 * within that), or read with a request's other lookups where it has some (ingest: `agentsOf`).
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { getAgentSettings, putAgentSettings, type AgentSettings } from '../../db/agents.js';
import { forgetAgentSettings } from './switches.js';
import { getTenantConfig } from '../../db/tenants.js';
import { retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { ConflictError, invalid, NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import { AGENT_NOT_FOUND, AGENTS, agentById, type AgentDef } from '../../vocabulary/agents.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { agentView, IN_REQUEST_WORK, workersHealth, type AgentView, type WorkerRef } from '../operations/index.js';
import { updateTenantConfig } from '../accounts/index.js';

async function settingsOf(agent: AgentDef, tenantId: TenantId): Promise<Record<string, unknown>> {
  if (!agent.settings?.length) return {};
  const config = (await getTenantConfig(tenantId)) as Record<string, unknown> | null;
  return Object.fromEntries(agent.settings.map((field) => [field, config?.[field] ?? null]));
}

export async function listAgents(tenantId: TenantId, workers: readonly WorkerRef[]): Promise<AgentView[]> {
  const [settings, health] = await Promise.all([
    getAgentSettings(tenantId),
    workersHealth([...workers, ...IN_REQUEST_WORK]),
  ]);
  return Promise.all(AGENTS.map(async (a) => agentView(a, health, settings.disabled, await settingsOf(a, tenantId))));
}

export async function findAgent(
  tenantId: TenantId,
  agentId: string,
  workers: readonly WorkerRef[],
): Promise<AgentView> {
  const agent = agentById(agentId);
  if (!agent) throw new NotFoundError(AGENT_NOT_FOUND);
  const [settings, health, values] = await Promise.all([
    getAgentSettings(tenantId),
    workersHealth([...workers, ...IN_REQUEST_WORK]),
    settingsOf(agent, tenantId),
  ]);
  return agentView(agent, health, settings.disabled, values);
}

export interface AgentUpdate {
  enabled?: boolean;
  settings?: { incident_threshold?: number };
}

/**
 * Switches an agent off or on for the tenant (audited as `agent.disabled` / `agent.enabled`), and
 * sets what it reads from the tenant configuration (audited as that change). An agent the tenant
 * may not switch off is 409 saying why; a setting it does not read is 422 (the schema's).
 */
export async function updateAgent(
  actor: Actor,
  tenantId: TenantId,
  agentId: string,
  update: AgentUpdate,
  workers: readonly WorkerRef[],
): Promise<AgentView> {
  const agent = agentById(agentId);
  if (!agent) throw new NotFoundError(AGENT_NOT_FOUND);
  if (update.enabled === false && !agent.whenDisabled)
    throw new ConflictError(`${agent.name} cannot be switched off: ${agent.required}`);
  for (const key of Object.keys(update.settings ?? {})) {
    if (!agent.settings?.includes(key))
      throw invalid(
        ['body', 'settings', key],
        `is not a setting of ${agent.name} (it reads ${agent.settings?.length ? agent.settings.join(', ') : 'none'})`,
        'extra_forbidden',
      );
  }
  if (update.settings && Object.keys(update.settings).length > 0)
    await updateTenantConfig(actor, tenantId, update.settings);
  if (update.enabled !== undefined) {
    await retryOnConcurrentChange(async () => {
      const current: AgentSettings = await getAgentSettings(tenantId);
      const disabled = update.enabled
        ? current.disabled.filter((id) => id !== agentId)
        : [...new Set([...current.disabled, agentId])];
      if (disabled.length === current.disabled.length && disabled.every((id) => current.disabled.includes(id))) return;
      await transactWrite([
        putAgentSettings(tenantId, { disabled, updated_at: now(), version: current.version }, current.version),
        auditPut(
          auditEntry(actor, {
            tenantId,
            action: update.enabled ? 'agent.enabled' : 'agent.disabled',
            resourceType: 'agent',
            resourceId: agentId,
            changes: { enabled: { from: !update.enabled, to: update.enabled } },
          }),
        ),
      ]);
    });
    forgetAgentSettings(tenantId);
  }
  return findAgent(tenantId, agentId, workers);
}
