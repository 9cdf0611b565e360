/**
 * Integrations: where people are told, and connectors. Each telling kind speaks its service's own
 * format: Slack's and Microsoft Teams' incoming webhooks, PagerDuty's Events API v2, email (Amazon
 * SES; a local SMTP server under `npm start`), and a generic HTTP endpoint signed per Standard
 * Webhooks; a `feed` integration is a connector polling a public feed (docs/connectors.md), whose
 * schedule follows its settings. Credentials are write-only: the configuration is sealed as one
 * value and never returned; an address's own credentials (user name and password, a `token` or
 * `key` parameter: shared/url-secrets.ts) are `REDACTED` in its `endpoint` and connector settings,
 * and an address sent back with them so keeps the ones sealed. Addresses pass the outbound guard
 * when saved and when called. Changes are audited without credentials. Reads are in shared/domain/integrations/reads.ts, the test in
 * shared/domain/integrations/connection-test.ts, and incident notifications go through the per-kind senders
 * (shared/domain/integrations/messages.ts).
 */
import { checkOutboundUrl, OutboundRefusedError } from '../../adapters/outbound-address.js';
import { outboundPolicy } from '../outbound-policy.js';
import { emailConfigured } from '../../adapters/mailer.js';
import { secretBox } from '../../adapters/secret-box.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  deleteIntegrationItems,
  integrationSecretContext as sealedFor,
  MAX_INTEGRATIONS_PER_TENANT,
  publicIntegration,
  putNewIntegration,
  updateIntegration,
  type Integration,
  type StoredIntegration,
} from '../../db/integrations.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { ConflictError, invalid } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import { connectorAttributes, type ConnectorSettings } from '../../db/connectors.js';
import {
  INTEGRATION_CONFIG,
  PAGERDUTY_EVENTS_URL,
  type configFields,
  type IntegrationKind,
  type integrationCreate,
  type integrationUpdate,
} from '../../schemas/integrations.js';
import type { InputOf } from '../../schemas/json-schema.js';
import { INTEGRATION_NOT_FOUND } from '../../vocabulary/integrations.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import { findStoredIntegration } from './reads.js';
import type { SealedConfig } from './messages.js';
import { newSigningSecret } from '../webhooks/index.js';
import { armConnector, connectorSettings, disarmConnector, keptSettings } from '../connectors/index.js';
import { hasPlaceholders, keepUrlSecrets, redactUrl, UrlPlaceholderError } from '../../url-secrets.js';

export type { Integration } from '../../db/integrations.js';
/**
 * A config as the domain reads it: every setting of every kind, each optional. The schema gives
 * each kind its own (a `oneOf` on `kind`); `configOf` checks them again for callers that are not
 * HTTP requests, and for a change, whose body does not name the kind.
 */
type IntegrationConfig = InputOf<{ type: 'object'; properties: typeof configFields; additionalProperties: false }>;
type WithConfig<T> = T extends { config?: unknown } ? Omit<T, 'config'> : never;
export type IntegrationCreate = WithConfig<InputOf<typeof integrationCreate>> & { config: IntegrationConfig };
export type IntegrationUpdate = WithConfig<InputOf<typeof integrationUpdate>> & { config?: IntegrationConfig };

export { INTEGRATION_NOT_FOUND };

export { outboundPolicy };

/** The settings of a config that are addresses. */
const ADDRESS_FIELDS = ['url', 'webhook_url', 'endpoint'] as const;

const hasKeptCredentials = (given: IntegrationCreate['config']) =>
  ADDRESS_FIELDS.some((f) => given[f] !== undefined && hasPlaceholders(given[f]));

/**
 * The config with each `REDACTED` of its addresses given back the credential sealed before at
 * the same place (`previous`: the config opened, null for a new integration), or a 422 at the
 * field when there is none to keep, or the address is another host's.
 */
function withKeptCredentials(
  given: IntegrationCreate['config'],
  previous: SealedConfig | null,
): IntegrationCreate['config'] {
  const out = { ...given };
  for (const field of ADDRESS_FIELDS) {
    const value = given[field];
    if (value === undefined) continue;
    try {
      out[field] = keepUrlSecrets(value, previous?.[field] ?? null);
    } catch (err) {
      if (err instanceof UrlPlaceholderError) throw invalid(['body', 'config', field], err.message, 'value_error');
      throw err;
    }
  }
  return out;
}

/** An address as it may be saved, or a 422 at `loc` saying why not. */
async function checkedAddress(raw: string, loc: string): Promise<string> {
  try {
    return (await checkOutboundUrl(raw, outboundPolicy())).href;
  } catch (err) {
    if (err instanceof OutboundRefusedError)
      throw invalid(['body', 'config', loc], `not an address we may call: ${err.message}`, 'url');
    throw err;
  }
}

/** The kind's configuration, complete and checked: what is sealed, where it sends, and the hint shown. */
async function configOf(
  kind: IntegrationKind,
  given: IntegrationCreate['config'],
): Promise<{ sealed: SealedConfig; endpoint: string; hint: string | null; connector?: ConnectorSettings }> {
  const need = <F extends keyof typeof given>(field: F): NonNullable<(typeof given)[F]> => {
    const value = given[field];
    if (!value) throw invalid(['body', 'config', field], `is required for a ${kind} integration`, 'missing');
    return value;
  };
  const extra = Object.keys(given).filter((k) => !allowed(kind).includes(k));
  if (extra.length > 0)
    throw invalid(['body', 'config', extra[0]!], `is not a setting of a ${kind} integration`, 'extra_forbidden');
  switch (kind) {
    case 'slack':
    case 'teams': {
      // The incoming webhook's address is its credential: only its origin is shown.
      const url = await checkedAddress(need('webhook_url'), 'webhook_url');
      return { sealed: { webhook_url: url }, endpoint: new URL(url).origin, hint: url.slice(-4) };
    }
    case 'pagerduty': {
      const key = need('routing_key');
      const endpoint = await checkedAddress(given.endpoint ?? PAGERDUTY_EVENTS_URL, 'endpoint');
      return { sealed: { routing_key: key, endpoint }, endpoint: redactUrl(endpoint), hint: key.slice(-4) };
    }
    case 'http': {
      const url = await checkedAddress(need('url'), 'url');
      return { sealed: { url, secret: newSigningSecret() }, endpoint: redactUrl(url), hint: null };
    }
    case 'drone': {
      // A dock or fleet API: one secret signs the commands sent and the callbacks taken (docs/drones.md).
      const url = await checkedAddress(need('url'), 'url');
      return { sealed: { url, secret: newSigningSecret() }, endpoint: redactUrl(url), hint: null };
    }
    case 'email': {
      const to = need('to');
      if (!emailConfigured())
        throw invalid(
          ['body', 'kind'],
          'this deployment sends no email: it has no sender address (EMAIL_FROM)',
          'value_error',
        );
      return { sealed: { to: [...to] }, endpoint: `mailto:${to.join(',')}`, hint: null };
    }
    case 'feed': {
      // A connector (docs/connectors.md): its source is shown, but for the credentials in it.
      const connector = await connectorSettings(given, (url) => checkedAddress(url, 'url'));
      const kept = keptSettings(connector);
      return { sealed: { url: connector.url }, endpoint: kept.url, hint: null, connector: kept };
    }
  }
}

/** The settings a kind takes (shared/schemas/integrations.ts). */
const allowed = (kind: IntegrationKind): readonly string[] => [
  ...INTEGRATION_CONFIG[kind].required,
  ...INTEGRATION_CONFIG[kind].optional,
];

export async function createIntegration(
  actor: Actor,
  tenantId: TenantId,
  input: IntegrationCreate,
): Promise<Integration & { secret?: string }> {
  const checked = await configOf(input.kind, withKeptCredentials(input.config, null));
  const at = now();
  const integrationId = newTimeId();
  const stored: Omit<StoredIntegration, 'version'> = {
    integration_id: integrationId,
    tenant_id: tenantId,
    name: input.name.trim(),
    kind: input.kind,
    enabled: input.enabled ?? true,
    endpoint: checked.endpoint,
    credential_hint: checked.hint,
    created_at: at,
    updated_at: at,
    config_sealed: await secretBox().seal(JSON.stringify(checked.sealed), sealedFor(tenantId, integrationId)),
    ...(checked.connector ? connectorAttributes(tenantId, integrationId, checked.connector) : {}),
  };
  const view = publicIntegration(stored);
  const audit = auditEntry(actor, {
    tenantId,
    action: 'integration.created',
    resourceType: 'integration',
    resourceId: integrationId,
    changes: {
      name: view.name,
      kind: view.kind,
      enabled: view.enabled,
      endpoint: view.endpoint,
      credential_hint: view.credential_hint,
    },
  });
  try {
    await transactWrite([...putNewIntegration(stored), auditPut(audit)]);
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 1)
      throw new ConflictError(`A tenant has at most ${MAX_INTEGRATIONS_PER_TENANT} integrations`);
    throw err;
  }
  if (checked.connector) await armConnector({ ...stored, connector: checked.connector });
  return checked.sealed.secret ? { ...view, secret: checked.sealed.secret } : view;
}

export async function updateIntegrationSettings(
  actor: Actor,
  tenantId: TenantId,
  integrationId: string,
  input: IntegrationUpdate,
): Promise<Integration> {
  const before = await findStoredIntegration(tenantId, integrationId);
  // An address sent back as it is shown keeps the credentials sealed before (opened only then).
  const previous = input.config && hasKeptCredentials(input.config) ? await openIntegrationConfig(before) : null;
  const checked = input.config ? await configOf(before.kind, withKeptCredentials(input.config, previous)) : undefined;
  // A signing secret is shown once, at creation: a new address keeps it (a dock keeps verifying).
  if (checked?.sealed.secret && before.kind === 'drone')
    checked.sealed.secret = (await openIntegrationConfig(before)).secret ?? checked.sealed.secret;
  const sealed = checked
    ? await secretBox().seal(JSON.stringify(checked.sealed), sealedFor(tenantId, integrationId))
    : undefined;
  return retryOnConcurrentChange(async () => {
    const current = await findStoredIntegration(tenantId, integrationId);
    const next: StoredIntegration = {
      ...current,
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(checked && sealed
        ? { endpoint: checked.endpoint, credential_hint: checked.hint, config_sealed: sealed }
        : {}),
      ...(checked?.connector ? { connector: checked.connector } : {}),
      updated_at: now(),
    };
    const changes = diff(publicIntegration(current), publicIntegration(next), ['updated_at']);
    // A new credential with the same hint still counts as a change, without saying what it was.
    if (sealed) changes.config = { from: 'replaced', to: 'replaced' };
    if (Object.keys(changes).length === 0) return publicIntegration(current);
    const audit = auditEntry(actor, {
      tenantId,
      action: 'integration.updated',
      resourceType: 'integration',
      resourceId: integrationId,
      changes,
    });
    const fields: (keyof StoredIntegration)[] = ['name', 'enabled', 'endpoint', 'credential_hint', 'config_sealed'];
    await transactWrite([updateIntegration(next, next.connector ? [...fields, 'connector'] : fields), auditPut(audit)]);
    // A connector's schedule follows its settings: the interval, and on or off.
    if (next.connector) await armConnector({ ...next, connector: next.connector });
    return publicIntegration(next);
  });
}

export async function deleteIntegration(actor: Actor, tenantId: TenantId, integrationId: string): Promise<void> {
  await retryOnConcurrentChange(async () => {
    const current = await findStoredIntegration(tenantId, integrationId);
    const audit = auditEntry(actor, {
      tenantId,
      action: 'integration.deleted',
      resourceType: 'integration',
      resourceId: integrationId,
      changes: { name: current.name, kind: current.kind },
    });
    await transactWrite([...deleteIntegrationItems(current), auditPut(audit)]);
    if (current.kind === 'feed') await disarmConnector(integrationId);
  });
}

/** The integration's configuration, opened (its seal names its tenant and integration). */
export async function openIntegrationConfig(stored: StoredIntegration): Promise<SealedConfig> {
  return JSON.parse(
    await secretBox().open(stored.config_sealed, sealedFor(stored.tenant_id, stored.integration_id)),
  ) as SealedConfig;
}
