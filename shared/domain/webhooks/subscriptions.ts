/**
 * Webhook subscriptions: a tenant's receivers, the types each wants, its signing secret (shown
 * once, at creation or rotation; kept sealed), and a signed test ping. Every address is checked
 * (shared/adapters/outbound-address.ts) when it is saved and again when it is called
 * (shared/adapters/outbound-http.ts). The credentials of a receiver's URL (shared/url-secrets.ts)
 * are sealed too, and shown `REDACTED`; a URL sent back so keeps them. Each change is audited in its own transaction, without the secrets.
 */
import { outboundPolicy } from '../outbound-policy.js';
import { checkOutboundUrl, OutboundRefusedError } from '../../adapters/outbound-address.js';
import { postOutbound } from '../../adapters/outbound-http.js';
import { secretBox, type SecretContext } from '../../adapters/secret-box.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { getEnvironment } from '../../db/environments.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import {
  deleteWebhookItems,
  getWebhook,
  MAX_WEBHOOKS_PER_TENANT,
  publicWebhook,
  putNewWebhook,
  updateWebhook,
  type StoredWebhook,
  type Webhook,
} from '../../db/webhooks/index.js';
import { ConflictError, invalid, NotFoundError } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { webhookCreate, webhookUpdate } from '../../schemas/webhooks.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import { ENVIRONMENT_NOT_FOUND } from '../sites/index.js';
import { WEBHOOK_NOT_FOUND } from './reads.js';
import { newSigningSecret, signedHeaders } from './signing.js';
import {
  givesCredentials,
  hasPlaceholders,
  joinUrl,
  keepUrlSecrets,
  splitUrl,
  UrlPlaceholderError,
  type UrlSecrets,
} from '../../url-secrets.js';

export type { Webhook } from '../../db/webhooks/index.js';
export { WEBHOOK_NOT_FOUND } from './reads.js';
export type WebhookCreate = InputOf<typeof webhookCreate>;
export type WebhookUpdate = InputOf<typeof webhookUpdate>;

/** How long the secret before a rotation keeps signing, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

const policy = outboundPolicy;

/** What a secret is bound to: its tenant and its subscription (shared/adapters/secret-box.ts). */
const sealedFor = (tenantId: string, webhookId: string): SecretContext => ({
  tenant_id: tenantId,
  purpose: `webhook:${webhookId}`,
});

/** What the credentials of a receiver's URL are bound to: its tenant and subscription, apart from the signing secret. */
const urlSealedFor = (tenantId: string, webhookId: string): SecretContext => ({
  tenant_id: tenantId,
  purpose: `webhook-url:${webhookId}`,
});

/**
 * The URL as it may be saved, or a 422 on `body.url` saying why not. `kept` is the URL called so
 * far, whose credentials a `REDACTED` of the new one keeps (null for a new subscription).
 */
async function receiverUrl(url: string, kept: string | null): Promise<string> {
  try {
    return (await checkOutboundUrl(keepUrlSecrets(url, kept), policy())).href;
  } catch (err) {
    if (err instanceof OutboundRefusedError)
      throw invalid(['body', 'url'], `not a receiver we may call: ${err.message}`, 'url');
    if (err instanceof UrlPlaceholderError) throw invalid(['body', 'url'], err.message, 'value_error');
    throw err;
  }
}

/** The URL as kept: shown, with its credentials sealed (null when it has none). */
export async function sealedUrl(
  url: string,
  tenantId: string,
  webhookId: string,
): Promise<{ url: string; url_secrets_sealed: string | null }> {
  const { url: shown, secrets } = splitUrl(url);
  return {
    url: shown,
    url_secrets_sealed: secrets
      ? await secretBox().seal(JSON.stringify(secrets), urlSealedFor(tenantId, webhookId))
      : null,
  };
}

/** The URL a subscription's deliveries go to: its credentials opened again. */
export async function receiverUrlOf(
  w: Pick<StoredWebhook, 'tenant_id' | 'webhook_id' | 'url' | 'url_secrets_sealed'>,
): Promise<string> {
  if (!w.url_secrets_sealed) return w.url;
  const secrets = JSON.parse(
    await secretBox().open(w.url_secrets_sealed, urlSealedFor(w.tenant_id, w.webhook_id)),
  ) as UrlSecrets;
  return joinUrl(w.url, secrets);
}

async function assertEnvironment(tenantId: TenantId, environmentId: string | null | undefined): Promise<void> {
  if (environmentId && !(await getEnvironment(tenantId, environmentId))) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
}

async function findStored(tenantId: TenantId, webhookId: string): Promise<StoredWebhook> {
  const stored = await getWebhook(tenantId, webhookId);
  if (!stored) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return stored;
}

/** The subscription and its signing secret, shown this once. */
export type WebhookWithSecret = Webhook & { secret: string };

export async function createWebhook(
  actor: Actor,
  tenantId: TenantId,
  input: WebhookCreate,
): Promise<WebhookWithSecret> {
  // What the request names of the tenant first: another tenant's environment is unknown, whatever else is wrong.
  await assertEnvironment(tenantId, input.filters?.environment_id);
  const url = await receiverUrl(input.url, null);
  const at = now();
  const webhookId = newTimeId();
  const secret = newSigningSecret();
  const stored: Omit<StoredWebhook, 'version'> = {
    webhook_id: webhookId,
    tenant_id: tenantId,
    ...(await sealedUrl(url, tenantId, webhookId)),
    event_types: [...new Set(input.event_types)],
    filters: {
      environment_id: input.filters?.environment_id ?? null,
      min_severity: input.filters?.min_severity ?? null,
    },
    enabled: input.enabled ?? true,
    description: input.description ?? null,
    disabled_reason: null,
    failing_since: null,
    previous_secret_expires_at: null,
    created_at: at,
    updated_at: at,
    secret_sealed: await secretBox().seal(secret, sealedFor(tenantId, webhookId)),
    previous_secret_sealed: null,
  };
  const view = publicWebhook(stored);
  const { url: savedUrl, event_types: eventTypes, filters, enabled, description } = view;
  const audit = auditEntry(actor, {
    tenantId,
    action: 'webhook.created',
    resourceType: 'webhook',
    resourceId: webhookId,
    changes: { url: savedUrl, event_types: eventTypes, filters, enabled, description },
  });
  try {
    await transactWrite([...putNewWebhook(stored), auditPut(audit)]);
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 1)
      throw new ConflictError(`A tenant has at most ${MAX_WEBHOOKS_PER_TENANT} webhook subscriptions`);
    throw err;
  }
  return { ...view, secret };
}

export async function updateWebhookSubscription(
  actor: Actor,
  tenantId: TenantId,
  webhookId: string,
  input: WebhookUpdate,
): Promise<Webhook> {
  // The tenant's own subscription and environment first (404), then the new address (422).
  const before = await findStored(tenantId, webhookId);
  await assertEnvironment(tenantId, input.filters?.environment_id);
  // A URL sent back as it is shown keeps the credentials sealed before (opened only then).
  const kept = input.url !== undefined && hasPlaceholders(input.url) ? await receiverUrlOf(before) : null;
  const url = input.url === undefined ? undefined : await receiverUrl(input.url, kept);
  const saved = url === undefined ? undefined : await sealedUrl(url, tenantId, webhookId);
  // A credential given (not kept) is a change, even where the URL shows the same.
  const newCredentials = input.url !== undefined && givesCredentials(input.url);
  return retryOnConcurrentChange(async () => {
    const current = await findStored(tenantId, webhookId);
    const next: StoredWebhook = {
      ...current,
      ...(saved ?? {}),
      ...(input.event_types !== undefined ? { event_types: [...new Set(input.event_types)] } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.filters !== undefined ? { filters: { ...current.filters, ...input.filters } } : {}),
      // Turned on again: whatever turned it off, and its failures so far, are behind it.
      ...(input.enabled !== undefined
        ? {
            enabled: input.enabled,
            disabled_reason: input.enabled ? null : current.disabled_reason,
            failing_since: input.enabled && !current.enabled ? null : (current.failing_since ?? null),
          }
        : {}),
      updated_at: now(),
    };
    const changes = diff(publicWebhook(current), publicWebhook(next), ['updated_at']);
    if (newCredentials) changes.url_credentials = { from: 'replaced', to: 'replaced' };
    if (Object.keys(changes).length === 0) return publicWebhook(current);
    const audit = auditEntry(actor, {
      tenantId,
      action: 'webhook.updated',
      resourceType: 'webhook',
      resourceId: webhookId,
      changes,
    });
    await transactWrite([
      updateWebhook(next, [
        'url',
        'url_secrets_sealed',
        'event_types',
        'description',
        'filters',
        'enabled',
        'disabled_reason',
        'failing_since',
      ]),
      auditPut(audit),
    ]);
    return publicWebhook(next);
  });
}

export async function deleteWebhook(actor: Actor, tenantId: TenantId, webhookId: string): Promise<void> {
  await retryOnConcurrentChange(async () => {
    const current = await findStored(tenantId, webhookId);
    const audit = auditEntry(actor, {
      tenantId,
      action: 'webhook.deleted',
      resourceType: 'webhook',
      resourceId: webhookId,
      changes: { url: current.url },
    });
    await transactWrite([...deleteWebhookItems(current), auditPut(audit)]);
  });
}

/** A new secret, shown once; the one before keeps signing beside it for ROTATION_OVERLAP_MS. */
export async function rotateWebhookSecret(
  actor: Actor,
  tenantId: TenantId,
  webhookId: string,
): Promise<WebhookWithSecret> {
  const secret = newSigningSecret();
  const sealed = await secretBox().seal(secret, sealedFor(tenantId, webhookId));
  return retryOnConcurrentChange(async () => {
    const current = await findStored(tenantId, webhookId);
    const at = now();
    const next: StoredWebhook = {
      ...current,
      secret_sealed: sealed,
      previous_secret_sealed: current.secret_sealed,
      previous_secret_expires_at: new Date(Date.parse(at) + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: at,
    };
    const audit = auditEntry(actor, {
      tenantId,
      action: 'webhook.secret_rotated',
      resourceType: 'webhook',
      resourceId: webhookId,
      changes: { previous_secret_expires_at: next.previous_secret_expires_at },
    });
    await transactWrite([
      updateWebhook(next, ['secret_sealed', 'previous_secret_sealed', 'previous_secret_expires_at']),
      auditPut(audit),
    ]);
    return { ...publicWebhook(next), secret };
  });
}

/** The secrets a delivery is signed with now: the current one, and the one before while it overlaps. */
export async function signingSecrets(w: StoredWebhook, atMs: number): Promise<string[]> {
  const box = secretBox();
  const context = sealedFor(w.tenant_id, w.webhook_id);
  const secrets = [await box.open(w.secret_sealed, context)];
  if (w.previous_secret_sealed && w.previous_secret_expires_at && Date.parse(w.previous_secret_expires_at) > atMs) {
    secrets.push(await box.open(w.previous_secret_sealed, context));
  }
  return secrets;
}

export interface WebhookTestResult {
  /** Whether the receiver answered 2xx. */
  delivered: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  /** The `webhook-id` the ping carried. */
  message_id: string;
  tested_at: string;
}

/** Sends a signed `webhook.test` ping, now, whatever the subscription's types, and reports the answer. */
export async function testWebhook(tenantId: TenantId, webhookId: string): Promise<WebhookTestResult> {
  const w = await findStored(tenantId, webhookId);
  const at = new Date();
  const messageId = `msg_${newTimeId()}`;
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: at.toISOString(),
    data: { webhook_id: w.webhook_id, message: 'A test delivery from Gatehouse: answer 2xx to show you received it.' },
  });
  const headers = signedHeaders(messageId, at, body, await signingSecrets(w, at.getTime()));
  const answer = await postOutbound(await receiverUrlOf(w), { headers, body }, policy());
  return {
    delivered: answer.status !== null && answer.status >= 200 && answer.status < 300,
    status_code: answer.status,
    latency_ms: answer.latencyMs,
    error: answer.error,
    message_id: messageId,
    tested_at: at.toISOString(),
  };
}
