/**
 * What an incident's changes write (issue 39): the write units of opening an incident, of a note
 * and of a status change, through the metering proxy (shared/local/dynamodb-meter.ts), for an
 * incident in an environment and BENCH_ZONES zones (default 1; its location in each) that has a
 * timeline already (BENCH_NOTES notes, default 6: a history of about 900 bytes, as the cost-growth
 * benchmark's incidents had). Each line is the median of BENCH_REPEAT (default 3) incidents; the
 * incident's own writes are split from those every change has anyway (audit, feed, outbox).
 *
 *   npx tsx bin/bench-incident-writes.ts
 *   BENCH_ZONES=150 npx tsx bin/bench-incident-writes.ts   (more zones than a transaction holds)
 */
import type { Tally } from '../shared/local/dynamodb-meter.js';
import { medianTally, showTally, startMeteredStack } from './metered-stack.js';

const NOTES = Number(process.env.BENCH_NOTES ?? 6);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const ZONES = Number(process.env.BENCH_ZONES ?? 1);
const SITE = { lat: 59.91, lon: 10.75 };
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const stack = await startMeteredStack('incident-writes');
try {
  const { token } = await stack.signUpTenant('Writes');
  const call = <T>(method: string, path: string, body?: unknown) => stack.api<T>(method, path, token, body);
  const { environment_id } = await call<{ environment_id: string }>('POST', '/api/v1/environments', {
    name: 'Harbour',
    type: 'port',
  });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let z = 0; z < ZONES; z++) {
    const zone = {
      environment_id,
      name: `Gate ${z}`,
      security_level: 2,
      geofence: { type: 'Circle', center: [SITE.lon, SITE.lat], radius_m: 200 + z },
    };
    // A tenant makes at most 100 requests a minute: past that, wait as the answer says.
    for (;;) {
      const wait = await call('POST', '/api/v1/zones', zone).then(
        () => 0,
        (error: unknown) => Number(/: 429 .*Try again in (\d+) s/.exec(String(error))?.[1] ?? NaN),
      );
      if (Number.isNaN(wait)) throw new Error(`zone ${z} was refused`);
      if (wait === 0) break;
      await pause(wait * 1000);
    }
  }
  // Zones are read once their last change has settled (shared/domain/sites/zone-cache.ts); the
  // measured steps are not to meet the request limit the zones used up.
  const { SETTLE_MS } = await import('../shared/domain/sites/index.js');
  await pause(Math.max(SETTLE_MS, ZONES > 50 ? 60_000 : 0));

  const steps: Record<'open' | 'note' | 'status', Tally[]> = { open: [], note: [], status: [] };
  for (let r = 0; r < REPEAT; r++) {
    let id = '';
    steps.open.push(
      await stack.tallyOf(async () => {
        ({ incident_id: id } = await call<{ incident_id: string }>('POST', '/api/v1/incidents', {
          title: `Someone at the fence ${r}`,
          description: 'Seen by the gate camera',
          severity: 'high',
          environment_id,
          location: SITE,
        }));
      }),
    );
    for (let n = 0; n < NOTES; n++)
      await call('PATCH', `/api/v1/incidents/${id}/respond`, { note: `Patrol ${n} sent to the north gate` });
    steps.note.push(
      await stack.tallyOf(() => call('PATCH', `/api/v1/incidents/${id}/respond`, { note: 'The patrol is there' })),
    );
    steps.status.push(
      await stack.tallyOf(() => call('PATCH', `/api/v1/incidents/${id}/respond`, { status: 'acknowledged' })),
    );
  }
  const sizes = stack.meter.sizes.of('INCIDENT').sort((a, b) => a - b);
  console.log(`\nincident writes (median of ${REPEAT}; ${ZONES} zones; after ${NOTES} notes; WRU: write units)`);
  for (const [label, tallies] of Object.entries(steps)) showTally(label.padEnd(6), medianTally(tallies), true);
  console.log(`incident items written: ${sizes.length}, largest ${sizes.at(-1)} bytes`);
} catch (error) {
  console.error('the benchmark failed:', error);
} finally {
  await stack.stop();
}
process.exit(0);
