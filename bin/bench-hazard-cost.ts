/**
 * DynamoDB calls of the hazard connectors and the risk route (a script, not a test;
 * docs/connectors.md): runs the local stack with the metering proxy in front of DynamoDB Local
 * (shared/local/dynamodb-meter.ts), as bin/bench-telemetry-cost.ts does, polls GDACS, USGS and NWS
 * captures (test/fixtures/feeds) from a local HTTP server, and prints the calls by operation of a
 * first poll, a second poll, and `GET /api/v1/environmental-risk`; and the same two polls of the
 * State Department's advisories, whose level-3 and level-4 countries alert the environments in them.
 *
 *   npx tsx bin/bench-hazard-cost.ts
 */
import { feedFixture, startFeedServer } from '../test/support/feed-server.js';
import { showTally, startMeteredStack } from './metered-stack.js';

// The captures are served from this machine.
process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
const stack = await startMeteredStack('hazard-cost');
const { api, tallyOf } = stack;
const show = (label: string, t: Parameters<typeof showTally>[1]) => showTally(label, t, true);
const feeds = await startFeedServer({
  '/gdacs.json': feedFixture('gdacs/eventsbyarea-pakistan.2026-10-08.json'),
  '/quakes.geojson': feedFixture('usgs-quakes/all_day.2022-09-29.trimmed.geojson'),
  '/nws.xml': feedFixture('nws-alerts/cap-atom-us.2017-09-02.trimmed.xml'),
  '/advisories.xml': feedFixture('state-dept-advisories/TAsTWs.2026-10-07.xml'),
});

try {
  const token = await stack.signUp('Hazards');
  // 40 km north of GDACS EQ 1569499 (current) and 30 km north of USGS nn00848153.
  await api('POST', '/api/v1/environments', token, {
    name: 'Faizabad depot',
    type: 'site',
    location: { lat: 36.97073, lon: 71.0216 },
  });
  await api('POST', '/api/v1/environments', token, {
    name: 'Mina substation',
    type: 'substation',
    location: { lat: 38.45069, lon: -117.936 },
  });
  // North Korea (level 4) and Burundi (level 3) in the advisories' capture.
  await api('POST', '/api/v1/environments', token, { name: 'Pyongyang office', type: 'building', country: 'KP' });
  await api('POST', '/api/v1/environments', token, { name: 'Bujumbura depot', type: 'building', country: 'BI' });
  for (const [feed, path] of [
    ['gdacs', '/gdacs.json'],
    ['usgs-quakes', '/quakes.geojson'],
    ['nws-alerts', '/nws.xml'],
    ['state-dept-advisories', '/advisories.xml'],
  ] as const) {
    const id = (
      await api<{ integration_id: string }>('POST', '/api/v1/integrations', token, {
        name: feed,
        kind: 'feed',
        config: { feed, url: `${feeds.base}${path}` },
      })
    ).integration_id;
    let report: { records: unknown; alerts_raised: number } | undefined;
    const poll = async () => (report = await api<typeof report>('POST', `/api/v1/connectors/${id}/poll`, token));
    show(`${feed} first poll`, await tallyOf(poll));
    console.log(`  ${JSON.stringify(report!.records)}, ${report!.alerts_raised} alerts`);
    show(`${feed} second poll`, await tallyOf(poll));
  }
  show('GET /api/v1/environmental-risk', await tallyOf(() => api('GET', '/api/v1/environmental-risk?days=30', token)));
} finally {
  await feeds.close();
  await stack.stop();
}
