/**
 * An integration's test (`POST /api/v1/integrations/{id}/test`): each kind's real test message,
 * sent through the same per-kind senders as incident notifications; a drone dock gets the signed
 * HTTP one; a connector (kind `feed`) reads its source and checks the document instead, storing
 * nothing.
 */
import { newTimeId } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { connectorUrl, probeFeed } from '../connectors/index.js';
import { findStoredIntegration } from './reads.js';
import { accepted, sendNotice, type Notice } from './messages.js';
import { openIntegrationConfig } from './writes.js';
import { outboundPolicy } from '../outbound-policy.js';

export interface TestConnectionResult {
  reachable: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  tested_at: string;
}

const TEST_TEXT = 'Gatehouse test message: this integration can reach you. No action needed.';

/** The test message: no link; PagerDuty's test alert is resolved again at once. */
function testNotice(integrationId: string, at: Date): Notice {
  return {
    type: 'integration.test',
    id: `msg_${newTimeId()}`,
    at,
    title: 'Gatehouse test message',
    text: `${TEST_TEXT}\n\nSent to test integration ${integrationId}.`,
    severity: 'info',
    dedupKey: `gatehouse-test-${integrationId}`,
    data: { integration_id: integrationId, message: TEST_TEXT },
    resolveAtOnce: true,
  };
}

/** Probes the configured endpoint with the kind's own test message and reports the answer. */
export async function testIntegration(tenantId: TenantId, integrationId: string): Promise<TestConnectionResult> {
  const stored = await findStoredIntegration(tenantId, integrationId);
  const at = new Date();
  if (stored.kind === 'feed') {
    // A connector tells nobody: its test reads its source and checks the document, storing nothing.
    if (!stored.connector) throw new Error(`feed integration ${integrationId} has no connector settings`);
    const url = await connectorUrl({ ...stored, connector: stored.connector });
    const probe = await probeFeed(stored.connector.feed, outboundPolicy(), url);
    return {
      reachable: probe.ok,
      status_code: probe.httpStatus,
      latency_ms: probe.latencyMs,
      error: probe.error,
      tested_at: at.toISOString(),
    };
  }
  // A dock (docs/drones.md) is probed as a signed HTTP endpoint is: the signed `integration.test` delivery.
  const kind = stored.kind === 'drone' ? 'http' : stored.kind;
  const answer = await sendNotice(
    kind,
    await openIntegrationConfig(stored),
    testNotice(integrationId, at),
    outboundPolicy(),
  );
  return {
    // Email has no HTTP status: handed over to the mail service without an error is reachable.
    reachable: accepted(kind, answer),
    status_code: answer.status,
    latency_ms: answer.latencyMs,
    error: answer.error,
    tested_at: at.toISOString(),
  };
}
