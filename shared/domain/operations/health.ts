/** Health: the service is up when every dependency answers within a short time. */
import { pingIdentityStore } from '../../adapters/cognito.js';
import { pingBucket } from '../../adapters/s3.js';
import { config } from '../../config.js';
import { pingTable } from '../../db/client.js';
import { portOf } from '../../runtime-ports.js';

export interface Health {
  status: 'ok' | 'degraded';
  /** Present when degraded: what does not answer. */
  detail?: string;
  version: string;
  /** Which handlers the local runtime serves; absent in AWS (shared/runtime-ports.ts). */
  handlers?: 'sources' | 'bundles';
  checks: Record<string, 'ok' | 'error'>;
}

const CHECKS: Record<string, () => Promise<unknown>> = {
  database: pingTable,
  storage: pingBucket,
  identity: pingIdentityStore,
};

function withTimeout(p: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    p,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('timed out')), config.healthCheckSeconds * 1000).unref(),
    ),
  ]);
}

export async function checkHealth(): Promise<Health> {
  const names = Object.keys(CHECKS);
  const results = await Promise.allSettled(names.map((n) => withTimeout(CHECKS[n]!())));
  const checks = Object.fromEntries(
    names.map((n, i) => [n, results[i]!.status === 'fulfilled' ? 'ok' : 'error']),
  ) as Health['checks'];
  const handlers = portOf<Health['handlers']>('handlers');
  const about = { version: config.version, ...(handlers ? { handlers } : {}) };
  const ok = Object.values(checks).every((c) => c === 'ok');
  if (ok) return { status: 'ok', ...about, checks };
  const failing = names.filter((n) => checks[n] === 'error');
  return { status: 'degraded', detail: `Not answering: ${failing.join(', ')}`, ...about, checks };
}
