/**
 * SLA scheduler benchmark (a script, not a test): how many overdue incidents one run of the
 * `sla-escalation` worker breaches and escalates, and how fast, against DynamoDB Local.
 *
 *   npx tsx bin/bench-sla.ts          # BENCH_INCIDENTS (default 500) over BENCH_TENANTS (default 5)
 *
 * It starts its own local stack (schedules off, so only this script runs the worker), gives the
 * tenants a one-minute SLA for critical incidents, opens the incidents, waits for them to be due
 * (a little over a minute after the last), then times the worker's handler.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INCIDENTS = Number(process.env.BENCH_INCIDENTS ?? 500);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 5);

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-sla-'));
const { startLocalStack } = await import('../shared/local/stack.js');
const stack = await startLocalStack({ dataDir, persist: false, schedules: false });
try {
  const { systemActor } = await import('../shared/domain/actor.js');
  const { createTenant, updateTenantConfig } = await import('../shared/domain/accounts/index.js');
  const { openIncident } = await import('../shared/domain/incidents/index.js');
  const { systemTenant } = await import('../shared/vocabulary/tenant.js');
  const { handler } = await import('../functions/workers/sla-escalation.js');
  const { workerContext } = await import('../shared/local/lambda-context.js');
  const { workerById } = await import('../shared/workers.js');

  const system = systemActor('bench-sla');
  const tenants: string[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const tenant = await createTenant(system, { name: `SLA bench ${i}` });
    await updateTenantConfig(system, systemTenant(tenant.tenant_id), {
      sla_minutes: { critical: 1, high: 60, medium: 240, low: 1440 },
    });
    tenants.push(tenant.tenant_id);
  }
  const opened = performance.now();
  for (let i = 0; i < INCIDENTS; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, INCIDENTS - i) }, (_, j) => {
        const tenantId = tenants[(i + j) % tenants.length]!;
        const actor = {
          kind: 'user' as const,
          principal: {
            userId: 'bench',
            tenantId,
            role: 'OPERATOR' as const,
            via: 'jwt' as const,
            requestsPerMinute: null,
          },
          requestId: 'bench',
          sourceIp: '127.0.0.1',
        };
        return openIncident(actor, systemTenant(tenantId), {
          title: `Overdue ${i + j}`,
          severity: 'critical',
          status: 'confirmed',
        });
      }),
    );
  }
  const openMs = performance.now() - opened;
  console.log(
    `opened ${INCIDENTS} critical incidents in ${(openMs / 1000).toFixed(1)} s; waiting for the last to be due (1 min SLA)`,
  );
  await new Promise((r) => setTimeout(r, 61_000));

  const worker = workerById('sla-escalation');
  const started = performance.now();
  const result = await handler({}, workerContext(worker, 'us-east-1'));
  const ms = performance.now() - started;
  console.log(
    `one run: ${result.due} due, ${result.breached} breached, ${result.escalated} escalated, ${result.failed} failed in ${(ms / 1000).toFixed(2)} s ` +
      `(${Math.round(result.due / (ms / 1000))} incidents/s; the worker has ${worker.timeoutSeconds - 10} s a run)`,
  );
  const again = performance.now();
  const second = await handler({}, workerContext(worker, 'us-east-1'));
  console.log(`a run with nothing due: ${second.due} due in ${(performance.now() - again).toFixed(0)} ms`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
