/**
 * What sealing audit entries costs (shared/db/audit/seal.ts): a script that prints figures, not a
 * test.
 *
 *   npx tsx bin/bench-audit-seal.ts
 *
 * For transactions of 1, 4 (the threat-library seed), 40 and 100 entries: the MAC calls one write
 * makes (GenerateMac in AWS) and the time to seal, with the local stand-in (HMAC-SHA-256 in
 * process: the hashing and the message, without KMS's round trip); then, for a verification of
 * 1,000 entries written one per transaction and of 1,000 written 4 per transaction, the MAC
 * checks (VerifyMac) and the time to check them. The KMS figures are priced at us-east-1 list
 * prices ($0.03 per 10,000 requests, GenerateMac and VerifyMac alike). Options (env):
 * BENCH_REPEAT (writes timed per size, default 2000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

// No table is read or written: the configuration only has to load.
for (const name of ['TABLE_NAME', 'BUCKET_NAME', 'EVENT_BUS_NAME', 'USER_POOL_ID', 'USER_POOL_CLIENT_ID'])
  process.env[name] ??= 'bench';
const { checkAuditSeals, sealAuditItems, useAuditMac } = await import('../shared/db/audit/index.js');
const { newTimeId } = await import('../shared/ids.js');
const { LocalAuditMac } = await import('../shared/local/audit-mac.js');

const REPEAT = Number(process.env.BENCH_REPEAT ?? 2000);
const KMS_PER_REQUEST = 0.03 / 10_000;

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-seal-'));
const mac = new LocalAuditMac(join(dir, 'audit-mac.key'));
useAuditMac(mac);

/** An entry's item as an incident's creation writes it. */
function entry(): Record<string, unknown> {
  const logId = newTimeId();
  return {
    PK: 'T#0190a000-0000-7000-8000-000000000001#AUDIT',
    SK: logId,
    entity: 'AUDIT',
    log_id: logId,
    tenant_id: '0190a000-0000-7000-8000-000000000001',
    action: 'incident.created',
    resource_type: 'incident',
    resource_id: newTimeId(),
    user_id: newTimeId(),
    actor_type: 'user',
    api_key_id: null,
    timestamp: new Date().toISOString(),
    request_id: newTimeId(),
    source_ip: '192.0.2.10',
    changes: { title: 'Fence cut at the north gate', severity: 'high', status: 'open', zone_id: newTimeId() },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log('Sealing: one transaction that writes N audit entries');
console.log('entries  MAC calls  $ per million such writes (KMS)  local median ms  local p99 ms  seal bytes per entry');
for (const size of [1, 4, 40, 100]) {
  const times: number[] = [];
  let calls = 0;
  let bytes = 0;
  for (let i = 0; i < REPEAT; i++) {
    const items = Array.from({ length: size }, entry);
    const before = mac.calls.generate;
    const t0 = performance.now();
    await sealAuditItems(items);
    times.push(performance.now() - t0);
    calls = mac.calls.generate - before;
    bytes = Buffer.byteLength(JSON.stringify(items[0]!.seal));
  }
  times.sort((a, b) => a - b);
  console.log(
    [
      String(size).padStart(7),
      String(calls).padStart(10),
      (calls * KMS_PER_REQUEST * 1e6).toFixed(2).padStart(34),
      median(times).toFixed(3).padStart(16),
      times[Math.floor(times.length * 0.99)]!.toFixed(3).padStart(13),
      String(bytes).padStart(21),
    ].join(''),
  );
}

console.log('\nVerifying 1,000 entries (the seals only; the digests are SHA-256 in process)');
for (const perTransaction of [1, 4]) {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < 1000; i += perTransaction) {
    const batch = Array.from({ length: perTransaction }, entry);
    await sealAuditItems(batch);
    items.push(...structuredClone(batch));
  }
  const before = mac.calls.verify;
  const t0 = performance.now();
  const { checks } = await checkAuditSeals(items);
  const ms = performance.now() - t0;
  const calls = mac.calls.verify - before;
  if (checks.some((c) => c.kind !== 'sealed')) throw new Error('a seal did not hold');
  console.log(
    `${perTransaction} per transaction: ${calls} MAC checks ($${(calls * KMS_PER_REQUEST).toFixed(4)} in KMS), ${ms.toFixed(1)} ms locally`,
  );
}
rmSync(dir, { recursive: true, force: true });
