/**
 * The playbooks `POST /api/v1/threat-libraries/seed` adds beside the threat libraries: standard
 * operating procedures for the situations the seeded definitions detect. Two are playbooks
 * (a `manual` trigger: an operator runs them on an incident or an event); the third watches
 * critical incidents by itself and is created switched off, so seeding changes nothing until an
 * administrator turns it on. Found again by `seed_key`: a second seed creates nothing, and a seeded
 * playbook the tenant deleted is created again.
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { allWorkflows, putNewWorkflows, type Workflow } from '../../db/workflows.js';
import { namedId } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { MAX_WORKFLOWS_PER_TENANT } from '../../vocabulary/workflows.js';
import type { Actor } from '../actor.js';
import { ConflictError } from '../../errors.js';
import { newWorkflow, type WorkflowCreate } from './definitions.js';

type SeedPlaybook = Omit<WorkflowCreate, 'tenant_id'> & { seed_key: string };

const stillUnacknowledged = { '==': [{ var: 'incident.status' }, 'confirmed'] };

export const SEED_PLAYBOOKS: readonly SeedPlaybook[] = [
  {
    seed_key: 'gatehouse.perimeter-breach-response',
    name: 'Perimeter breach response',
    description:
      'For a confirmed breach of the perimeter (fence alarm, forced gate, a drone over the line): raise the incident to high, record the first actions for the responding officer, and escalate if nobody has acknowledged it within 10 minutes. Run it on the incident.',
    trigger: { type: 'manual' },
    actions: [
      { type: 'update_incident', severity: 'high', if: { in: [{ var: 'incident.severity' }, ['low', 'medium']] } },
      {
        type: 'add_note',
        text: 'Perimeter breach playbook: 1. dispatch the nearest patrol to the breach point and keep radio contact; 2. lock down the access points of the affected zone; 3. pull the cameras covering the zone for the 15 minutes before the alarm; 4. do not reset the alarm before the patrol confirms the line is intact.',
      },
      { type: 'wait', minutes: 10 },
      { type: 'escalate', reason: 'Perimeter breach not acknowledged within 10 minutes', if: stillUnacknowledged },
    ],
  },
  {
    seed_key: 'gatehouse.vessel-loitering-cable',
    name: 'Vessel loitering near a subsea cable',
    description:
      'For a vessel loitering or anchoring within the protection corridor of a subsea cable (ICPC practice: keep anchoring and trawling out of the corridor): open a high incident from the AIS event, record the actions for the watch officer, and escalate if nobody has acknowledged it within 30 minutes. Run it on the event.',
    trigger: { type: 'manual' },
    actions: [
      {
        type: 'create_incident',
        title: 'Vessel loitering near a subsea cable',
        severity: 'high',
        description: 'Opened by the vessel-loitering playbook from the AIS event it was run on.',
      },
      {
        type: 'add_note',
        text: "Cable protection playbook: 1. identify the vessel (MMSI, name, flag) and plot its track against the cable route; 2. hail it on VHF channel 16 and advise it of the cable's position and the charted no-anchoring corridor; 3. inform the cable owner's network operations centre; 4. if it anchors or does not move off, report it to the coast guard with the track.",
      },
      { type: 'wait', minutes: 30 },
      {
        type: 'escalate',
        reason: 'Cable loitering incident not acknowledged within 30 minutes',
        if: stillUnacknowledged,
      },
    ],
  },
  {
    seed_key: 'gatehouse.critical-unacknowledged',
    name: 'Escalate critical incidents nobody acknowledged in 5 minutes',
    description:
      'Watches every critical incident that is confirmed: if nobody has acknowledged it 5 minutes later, it goes up one escalation level (before the SLA, which for critical incidents is longer by default). Created switched off: turn it on with POST /api/v1/workflows/{id}/enable.',
    enabled: false,
    trigger: { type: 'incident', changes: ['incident.created', 'incident.confirmed'] },
    conditions: {
      and: [{ '==': [{ var: 'incident.severity' }, 'critical'] }, { '==': [{ var: 'incident.status' }, 'confirmed'] }],
    },
    actions: [
      { type: 'wait', minutes: 5 },
      { type: 'escalate', reason: 'Critical incident not acknowledged within 5 minutes', if: stillUnacknowledged },
    ],
  },
];

export interface PlaybookSeedResult {
  created: string[];
  skipped: string[];
}

/** A seeded playbook's id: the same for a tenant and seed key whoever seeds, so two seeds at once make one. */
export const seedWorkflowId = (tenantId: TenantId, seedKey: string): string =>
  namedId(`workflow-seed\u0000${tenantId}\u0000${seedKey}`);

/** Creates the seeded playbooks the tenant lacks (one transaction), and says which it found. */
export async function seedPlaybooks(actor: Actor, tenantId: TenantId): Promise<PlaybookSeedResult> {
  return retryOnConcurrentChange(
    async () => {
      const existing = await allWorkflows(tenantId);
      const bySeedKey = new Map(existing.filter((w) => w.seed_key).map((w) => [w.seed_key, w]));
      const result: PlaybookSeedResult = { created: [], skipped: [] };
      const created: Workflow[] = [];
      for (const { seed_key: key, ...input } of SEED_PLAYBOOKS) {
        const found = bySeedKey.get(key);
        if (found) {
          result.skipped.push(found.workflow_id);
          continue;
        }
        created.push(await newWorkflow(tenantId, input, existing, { key, id: seedWorkflowId(tenantId, key) }));
      }
      if (created.length === 0) return result;
      if (existing.length + created.length > MAX_WORKFLOWS_PER_TENANT) throw limitReached(created.length);
      try {
        await transactWrite([
          ...putNewWorkflows(tenantId, created),
          ...created.map((w) =>
            auditPut(
              auditEntry(actor, {
                tenantId,
                action: 'workflow.created',
                resourceType: 'workflow',
                resourceId: w.workflow_id,
                changes: { name: w.name, seed_key: w.seed_key, enabled: w.enabled, via: 'seed' },
              }),
            ),
          ),
        ]);
      } catch (err) {
        if (err instanceof ConditionFailed && err.index === created.length) throw limitReached(created.length);
        throw err;
      }
      result.created.push(...created.map((w) => w.workflow_id));
      return result;
    },
    // Another seed made one of them first: read again.
    (index) => index < SEED_PLAYBOOKS.length,
  );
}

const limitReached = (adding: number) =>
  new ConflictError(
    `A tenant has at most ${MAX_WORKFLOWS_PER_TENANT} workflows; the seed would add ${adding}: delete some first`,
  );
