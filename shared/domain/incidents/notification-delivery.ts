/**
 * Sending an `incident.notification` to its targets: the users of its roles (under the local
 * runtime, a line in `notifications.jsonl`), each integration its level names (in the kind's own
 * format), and each email recipient. Every message carries an acknowledgement link of its own,
 * minted at that moment: its token exists only in what that target receives; the table keeps its
 * hash (and the bus, the outbox and the logs never see it).
 *
 * Idempotent per (notification, target), in three DynamoDB calls whatever the number of targets:
 * 1. one BatchGetItem reads every target's marker and the integrations named;
 * 2. one transaction writes, per target to send, its token's hash and its claim (`sending`);
 * 3. after sending to all of them at once, one BatchWriteItem marks each `sent` or `failed`.
 * A retried bus event sends nothing to a target marked `sent`; those that failed get a new link
 * then, and the run throws after trying them all, so the worker is retried. An integration
 * deleted or disabled since is skipped, and so is email where no sender is configured.
 */
import { emailConfigured } from '../../adapters/mailer.js';
import type { NotificationSender } from '../../adapters/notification-sender.js';
import { config } from '../../config.js';
import { putAckToken } from '../../db/incidents.js';
import type { StoredIntegration } from '../../db/integrations.js';
import {
  claimDelivery,
  readDeliveryState,
  settleDeliveries,
  type DeliveryOutcome,
} from '../../db/notification-deliveries.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { log } from '../../log.js';
import { metrics } from '../../metrics.js';
import { isNotifyKind, type NotifyKind } from '../../schemas/integrations.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import {
  accepted,
  sendNotice,
  type Notice,
  type PagerDutySeverity,
  type SealedConfig,
  openIntegrationConfig,
  outboundPolicy,
} from '../integrations/index.js';
import { hashToken, issueAckToken, linkToken } from './ack-token.js';
import type { NotificationReason } from './notifications.js';
import { agentEnabled } from '../agents/index.js';

/** The bus detail of `incident.notification` (docs/events.md). */
export interface NotificationDetail {
  /** The outbox message's id (added when published): one per notification, the same on a retry. */
  message_id: string;
  incident_id: string;
  title: string;
  severity: string;
  escalation_level: number;
  /** Absent in notifications written before it was said: read from the level then (0 confirmed, above it the SLA). */
  reason?: NotificationReason;
  notify_roles: readonly string[];
  /** Absent in notifications written before levels named integrations. */
  integration_ids?: readonly string[];
  email_recipients: readonly string[];
  link_ttl_minutes: number;
}

/** What a run did, by target (`roles`, `integration#<id>`, `email#<address>`). */
export interface DeliveryReport {
  sent: string[];
  /** Marked sent by an earlier run (or being sent by another one now). */
  already: string[];
  skipped: { target: string; reason: string }[];
}

/** A claim older than this belongs to a run that died: the worker's timeout (30 s) is shorter. */
const CLAIM_LEASE_MS = 60_000;

/** Claims and tokens per transaction: two items each, a hundred at most. */
const TARGETS_PER_TRANSACTION = 50;

const PAGERDUTY_SEVERITY: Record<string, PagerDutySeverity> = {
  critical: 'critical',
  high: 'error',
  medium: 'warning',
  low: 'info',
};

const REASON_TEXT: Record<NotificationReason, string> = {
  confirmed: 'confirmed',
  not_acknowledged: 'not acknowledged in time',
  escalated_manually: 'escalated by hand',
};

/** A notification could not reach every target; those that took it are not sent it again. */
export class NotificationNotDelivered extends Error {
  override readonly name = 'NotificationNotDelivered';
}

/** A link of the notification: the acknowledgement path (with its token) and when it expires. */
export interface MintedLink {
  path: string;
  expiresAt: string;
}

/**
 * The incident as an integration is told it (docs/configuration.md, "Who is told, and how"): the
 * title with its severity and level, the facts, and the link as a button, an action or a line.
 */
export function incidentNotice(
  d: NotificationDetail & { tenant_id: string },
  link: MintedLink & { url: string },
  at: Date,
): Notice {
  const severity = d.severity.toUpperCase();
  const reason = d.reason ?? (d.escalation_level === 0 ? 'confirmed' : 'not_acknowledged');
  const level = `${d.escalation_level} (${REASON_TEXT[reason]})`;
  return {
    type: 'incident.notification',
    id: `msg_${d.message_id}`,
    at,
    title: `${severity} incident${d.escalation_level > 0 ? `, escalation level ${d.escalation_level}` : ''}: ${d.title}`,
    text: [
      d.title,
      `Severity: ${severity}`,
      `Escalation level: ${level}`,
      `The link shows the incident with an Acknowledge button. It works once, until ${link.expiresAt}.`,
    ].join('\n'),
    severity: PAGERDUTY_SEVERITY[d.severity] ?? 'warning',
    // One PagerDuty alert per incident: each level is told on the same alert.
    dedupKey: `gatehouse-${d.incident_id}`,
    link: { href: link.url, text: 'Acknowledge' },
    facts: [
      { name: 'Severity', value: severity },
      { name: 'Escalation level', value: String(d.escalation_level) },
      { name: 'Link valid until', value: link.expiresAt },
    ],
    data: {
      notification_id: d.message_id,
      tenant_id: d.tenant_id,
      incident_id: d.incident_id,
      title: d.title,
      severity: d.severity,
      escalation_level: d.escalation_level,
      reason,
      acknowledge_url: link.url,
      link_expires_at: link.expiresAt,
    },
  };
}

/**
 * Where a link points: the API's public address (PUBLIC_API_URL) and the path. Unset, what needs
 * the address fails (and is retried, then dead-lettered), naming the setting.
 */
function absolute(path: string): string {
  if (!config.publicApiUrl) throw new Error('PUBLIC_API_URL is not set: the link cannot be made absolute');
  return `${config.publicApiUrl}${path}`;
}

/** One place the notification goes, ready to be sent with its link. */
interface Target {
  key: string;
  /** How it goes, as the `NotificationsSent` metric names it: `roles` (the users' sender) or the integration's kind (`email`, `slack`, ...). */
  channel: string;
  /** Who the link was sent to, as its acknowledgement records it. */
  addressedTo: string[];
  send(link: MintedLink): Promise<string | null>;
}

const unique = <T>(list: readonly T[]): T[] => [...new Set(list)];

/**
 * Delivers a notification read from the bus. The tenant is the entry's own `tenant_id` (the
 * outbox sets it from the change that announced it): system work, no request's caller.
 */
export async function deliverNotification(
  detail: NotificationDetail & { tenant_id: string },
  sender: NotificationSender | null,
): Promise<DeliveryReport> {
  const tenantId: TenantId = systemTenant(detail.tenant_id);
  const { incident_id: incidentId, message_id: messageId } = detail;
  const report: DeliveryReport = { sent: [], already: [], skipped: [] };
  const at = new Date();
  // A tenant that switched the notifier agent off is told nothing (docs/operations.md).
  if (!(await agentEnabled(tenantId, 'notifier'))) {
    report.skipped.push({ target: '*', reason: 'the notifier agent is switched off for the tenant' });
    log.info('incident notification not sent: the notifier agent is switched off for the tenant', {
      tenant_id: tenantId,
      incident_id: incidentId,
      message_id: messageId,
    });
    return report;
  }

  const integrationIds = unique(detail.integration_ids ?? []);
  const emails = unique((detail.email_recipients ?? []).map((e) => e.toLowerCase()));
  const candidates = [
    ...(sender ? ['roles'] : []),
    ...integrationIds.map((id) => `integration#${id}`),
    ...emails.map((e) => `email#${e}`),
  ];
  if (candidates.length === 0) return report;

  // Call 1: every marker, and the integrations as they are now.
  const state = await readDeliveryState(tenantId, incidentId, messageId, candidates, integrationIds);
  const staleBefore = new Date(at.getTime() - CLAIM_LEASE_MS).toISOString();
  const open = (key: string) => {
    const marker = state.markers.get(key);
    if (marker?.status === 'sent' || (marker?.status === 'sending' && marker.at >= staleBefore)) {
      report.already.push(key);
      return false;
    }
    return true;
  };
  const skip = (target: string, reason: string, level: 'info' | 'warn' = 'info') => {
    report.skipped.push({ target, reason });
    log[level]('notification target skipped', { incident_id: incidentId, notification_id: messageId, target, reason });
  };
  const viaKind = (kind: NotifyKind, c: () => Promise<SealedConfig>) => async (link: MintedLink) => {
    const answer = await sendNotice(
      kind,
      await c(),
      incidentNotice(detail, { ...link, url: absolute(link.path) }, at),
      outboundPolicy(),
    );
    return accepted(kind, answer) ? null : (answer.error ?? `answered ${answer.status}`);
  };

  const targets: Target[] = [];
  if (sender && open('roles')) {
    targets.push({
      key: 'roles',
      channel: 'roles',
      addressedTo: [...detail.notify_roles],
      send: async (link) => {
        await sender.send({
          notification_id: messageId,
          tenant_id: tenantId,
          incident_id: incidentId,
          title: detail.title,
          severity: detail.severity,
          escalation_level: detail.escalation_level,
          to: { roles: detail.notify_roles },
          acknowledge_path: link.path,
          ...(config.publicApiUrl ? { acknowledge_url: absolute(link.path) } : {}),
          link_expires_at: link.expiresAt,
          sent_at: new Date().toISOString(),
        });
        return null;
      },
    });
  }
  for (const id of integrationIds) {
    const key = `integration#${id}`;
    if (!open(key)) continue;
    const integration: StoredIntegration | undefined = state.integrations.get(id);
    if (!integration) skip(key, 'the integration was deleted');
    else if (!integration.enabled) skip(key, 'the integration is disabled');
    else if (!isNotifyKind(integration.kind)) skip(key, `a ${integration.kind} integration tells nobody`, 'warn');
    else if (integration.kind === 'email' && !emailConfigured())
      skip(key, 'this deployment sends no email (EMAIL_FROM is not set)', 'warn');
    else
      targets.push({
        key,
        channel: integration.kind,
        addressedTo: [`integration:${id}`],
        send: viaKind(integration.kind, () => openIntegrationConfig(integration)),
      });
  }
  for (const email of emails) {
    const key = `email#${email}`;
    if (!open(key)) continue;
    if (!emailConfigured()) skip(key, 'this deployment sends no email (EMAIL_FROM is not set)', 'warn');
    else
      targets.push({
        key,
        channel: 'email',
        addressedTo: [`email:${email}`],
        send: viaKind('email', async () => ({ to: [email] })),
      });
  }
  if (targets.length === 0) return report;

  // Call 2: a link per target, its hash and the target's claim written together.
  const stamp = at.toISOString();
  const links = new Map<string, MintedLink>();
  const writes = targets.map((t) => {
    const issued = issueAckToken(at.getTime(), detail.link_ttl_minutes);
    const token = linkToken(tenantId, issued.token);
    const path = `/api/v1/incidents/${incidentId}/acknowledge?token=${token}`;
    links.set(t.key, { path, expiresAt: issued.expiresAt });
    return [
      putAckToken({
        incident_id: incidentId,
        tenant_id: tenantId,
        token_hash: hashToken(token),
        expires_at_iso: issued.expiresAt,
        addressed_to: t.addressedTo,
      }),
      claimDelivery(tenantId, incidentId, messageId, t.key, stamp, staleBefore),
    ];
  });
  try {
    for (let i = 0; i < writes.length; i += TARGETS_PER_TRANSACTION)
      await transactWrite(writes.slice(i, i + TARGETS_PER_TRANSACTION).flat());
  } catch (err) {
    // Another run of the same event claimed a target meanwhile: it sends; a retry sees how it went.
    if (err instanceof ConditionFailed) throw new NotificationNotDelivered('another run is sending this notification');
    throw err;
  }

  // Every target at once; one that throws is one that failed.
  const outcomes: DeliveryOutcome[] = await Promise.all(
    targets.map(async (t): Promise<DeliveryOutcome> => {
      try {
        const failure = await t.send(links.get(t.key)!);
        return failure === null
          ? { target: t.key, status: 'sent' }
          : { target: t.key, status: 'failed', reason: failure };
      } catch (err) {
        return { target: t.key, status: 'failed', reason: (err as Error).message };
      }
    }),
  );
  outcomes.forEach((o, i) => o.status === 'sent' && metrics.notificationSent(targets[i]!.channel));
  // Call 3: how each went.
  await settleDeliveries(tenantId, incidentId, messageId, outcomes, new Date().toISOString());
  const failed = outcomes.filter((o) => o.status === 'failed');
  report.sent.push(...outcomes.filter((o) => o.status === 'sent').map((o) => o.target));
  if (failed.length > 0) {
    log.warn('notification targets failed', { incident_id: incidentId, notification_id: messageId, failed });
    throw new NotificationNotDelivered(
      `${failed.length} of ${outcomes.length} targets did not take the notification: ${failed.map((f) => `${f.target} (${f.reason})`).join('; ')}`,
    );
  }
  return report;
}
