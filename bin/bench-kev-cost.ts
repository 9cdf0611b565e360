/**
 * DynamoDB calls of a CISA KEV connector on the whole catalog (a script, not a test;
 * docs/connectors.md): runs the local stack with the metering proxy in front of DynamoDB Local,
 * as bin/bench-hazard-cost.ts does, serves the real catalog of 2025-08-25 (1,404 entries,
 * test/fixtures/feeds/cisa-kev) from a local HTTP server, and prints the calls by operation of a
 * first poll, a second poll of the same catalog, and a lookup by CVE and by product.
 *
 *   npx tsx bin/bench-kev-cost.ts
 */
import { gunzipSync } from 'node:zlib';
import { feedFixture, startFeedServer } from '../test/support/feed-server.js';
import { showTally, startMeteredStack } from './metered-stack.js';

// The catalog is served from this machine.
process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
const stack = await startMeteredStack('kev-cost');
const { api, tallyOf } = stack;
const show = (label: string, t: Parameters<typeof showTally>[1]) => showTally(label, t, true);
const feeds = await startFeedServer({
  '/kev.json': gunzipSync(feedFixture('cisa-kev/known_exploited_vulnerabilities.2025.08.25.json.gz')),
});

try {
  const token = await stack.signUp('KEV');
  const id = (
    await api<{ integration_id: string }>('POST', '/api/v1/integrations', token, {
      name: 'KEV',
      kind: 'feed',
      config: { feed: 'cisa-kev', url: `${feeds.base}/kev.json` },
    })
  ).integration_id;
  let report: { records: unknown } | undefined;
  const poll = async () => (report = await api<typeof report>('POST', `/api/v1/connectors/${id}/poll`, token));
  let started = Date.now();
  show('cisa-kev first poll (1,404 entries)', await tallyOf(poll));
  console.log(`  ${JSON.stringify(report!.records)}, ${Date.now() - started} ms`);
  started = Date.now();
  show('cisa-kev second poll (unchanged)', await tallyOf(poll));
  console.log(`  ${JSON.stringify(report!.records)}, ${Date.now() - started} ms`);
  show(
    'lookup by CVE',
    await tallyOf(() => api('GET', '/api/v1/threat-feed/vulnerabilities?cve=CVE-2021-44228', token)),
  );
  show(
    'lookup by product',
    await tallyOf(() => api('GET', '/api/v1/threat-feed/vulnerabilities?product=microsoft%20windows', token)),
  );
} finally {
  await feeds.close();
  await stack.stop();
}
