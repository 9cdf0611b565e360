/**
 * The agents' switches on the worker paths, against the run's DynamoDB Local: the SLA watchdog's
 * sweep and the notifier, run in this process as the workers run them, for a tenant that switched
 * the agent off through the API and then on again. (Ingest, voice and playbooks: test/e2e/operations.test.ts.)
 * A worker keeps the settings it read for 30 s; this process forgets them after each switch, as a
 * new container would.
 */
import { describe, expect, it } from 'vitest';
import { handler as slaHandler } from '../../functions/workers/sla-escalation.js';
import { forgetAgentSettings } from '../../shared/domain/agents/switches.js';
import { deliverNotification } from '../../shared/domain/incidents/notification-delivery.js';
import { openIncident } from '../../shared/domain/incidents/incidents.js';
import { workerContext } from '../../shared/local/lambda-context.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { workerById } from '../../shared/workers.js';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { atTime } from '../support/clock.js';
import { actorOf } from '../support/seed.js';

const MINUTE = 60_000;

async function switchAgent(org: RegisteredTenant, agent: string, enabled: boolean): Promise<void> {
  const res = await call('PATCH', `/api/v1/agents/${agent}`, { token: org.token, body: { enabled } });
  expect(res.status, res.text).toBe(200);
  forgetAgentSettings(org.tenantId);
}

describe('agent switches on the workers', () => {
  it("switched off, the SLA watchdog leaves the tenant's overdue incident alone; on again, the next sweep escalates it", async () => {
    const org = await registerTenant('SlaOff');
    // Off before the incident exists: the other files' sweeps (metrics, sla-scheduler) run beside
    // this one and escalate whatever is overdue and switched on, this tenant's incident included.
    await switchAgent(org, 'sla-watchdog', false);
    // Critical, opened 60 minutes ago: 45 minutes past its SLA.
    const opened = await atTime(Date.now() - 60 * MINUTE, () =>
      openIncident(actorOf(org), systemTenant(org.tenantId), {
        title: 'Fence cut',
        severity: 'critical',
        status: 'confirmed',
      }),
    );
    // Runs 40 minutes ago: only this file's incidents are due then (everyone else's are later).
    const sweep = () =>
      atTime(Date.now() - 40 * MINUTE, () =>
        slaHandler(
          { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} },
          workerContext(workerById('sla-escalation'), 'us-east-1'),
        ),
      );
    const level = async () =>
      (await call('GET', `/api/v1/incidents/${opened.incident_id}`, { token: org.token })).body
        .escalation_level as number;

    const skipped = await sweep();
    expect(skipped.skipped).toBeGreaterThanOrEqual(1);
    expect(await level()).toBe(0);

    await switchAgent(org, 'sla-watchdog', true);
    await sweep();
    expect(await level()).toBe(1);
  });

  it('switched off, the notifier sends a notification to nobody and says so; on again, it sends it', async () => {
    const org = await registerTenant('NotifierOff');
    const detail = {
      message_id: crypto.randomUUID(),
      tenant_id: org.tenantId,
      incident_id: crypto.randomUUID(),
      title: 'Gate 3 forced',
      severity: 'high',
      escalation_level: 0,
      notify_roles: ['TENANT_ADMIN'],
      integration_ids: [],
      email_recipients: ['soc@example.com'],
      link_ttl_minutes: 60,
    };
    await switchAgent(org, 'notifier', false);
    expect(await deliverNotification(detail, null)).toEqual({
      sent: [],
      already: [],
      skipped: [{ target: '*', reason: 'the notifier agent is switched off for the tenant' }],
    });

    await switchAgent(org, 'notifier', true);
    const report = await deliverNotification(detail, null);
    expect(report.skipped.map((s) => s.target)).not.toContain('*');
    expect(report.sent.length + report.skipped.length).toBeGreaterThan(0);
  });
});
