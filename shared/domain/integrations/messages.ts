/**
 * What an integration is sent, in its service's own format, and the sending: one sender per kind,
 * shared by the integration test (`POST /api/v1/integrations/{id}/test`) and by incident
 * notifications (shared/domain/incidents/notification-delivery.ts). The payload builders are pure
 * (test/unit/integration-messages.test.ts); `sendNotice` posts through the outbound guard
 * (shared/adapters/outbound-http.ts) or hands the mail to the mailer.
 *
 * - Slack incoming webhook: `text` (what notifications show), and when there is a link Block Kit
 *   `blocks`: a section with the text and facts, and an actions block with a link button.
 * - Microsoft Teams incoming webhook: an Office 365 connector `MessageCard` with facts and an
 *   `OpenUri` potential action for the link.
 * - PagerDuty Events API v2: a `trigger` with `dedup_key`, `payload` (summary, source, severity,
 *   timestamp, custom_details) and `links` ({href, text}); a test is resolved again at once.
 * - Email: plain text, the link on a line of its own.
 * - HTTP: `{type, timestamp, data}` signed per Standard Webhooks with the integration's secret.
 */
import { mailer } from '../../adapters/mailer.js';
import type { OutboundPolicy } from '../../adapters/outbound-address.js';
import { postOutbound, type OutboundAnswer } from '../../adapters/outbound-http.js';
import type { NotifyKind } from '../../schemas/integrations.js';
import { signedHeaders } from '../webhooks/index.js';

/** An integration's configuration as sealed: by kind, the address (a credential), key, secret or recipients. */
export interface SealedConfig {
  webhook_url?: string;
  routing_key?: string;
  endpoint?: string;
  url?: string;
  secret?: string;
  to?: string[];
}

/** PagerDuty's severities, most severe first. */
export type PagerDutySeverity = 'critical' | 'error' | 'warning' | 'info';

/** What to tell, whatever the kind: each sender makes its format from it. */
export interface Notice {
  /** The type of a signed HTTP delivery: `integration.test`, `incident.notification`. */
  type: string;
  /** The message's id, the same when it is sent again: an HTTP delivery's `webhook-id`. */
  id: string;
  at: Date;
  /** One line: the email's subject, the card's title, PagerDuty's summary. */
  title: string;
  /** Plain text, lines apart: the body of an email, the text of a chat message. */
  text: string;
  severity: PagerDutySeverity;
  /** PagerDuty's `dedup_key`: one alert per subject (an incident), however often it is told. */
  dedupKey: string;
  /** The link the person follows (an acknowledgement link), with its label. */
  link?: { href: string; text: string };
  /** Short facts beside the text in chat cards and PagerDuty's details. */
  facts?: readonly { name: string; value: string }[];
  /** The `data` of a signed HTTP delivery. */
  data: Record<string, unknown>;
  /** PagerDuty: resolve the alert right after triggering it (a test leaves nothing open). */
  resolveAtOnce?: boolean;
}

/** Slack's mrkdwn takes `&`, `<` and `>` as markup: shown text escapes them. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack incoming webhook's message (Block Kit). Without a link or facts: the text alone. */
export function slackMessage(n: Notice): Record<string, unknown> {
  if (!n.link && !n.facts?.length) return { text: n.text };
  const text = `*${slackEscape(n.title)}*\n${slackEscape(n.text)}`;
  const section: Record<string, unknown> = { type: 'section', text: { type: 'mrkdwn', text: text.slice(0, 3000) } };
  if (n.facts?.length)
    section.fields = n.facts
      .slice(0, 10)
      .map((f) => ({ type: 'mrkdwn', text: `*${slackEscape(f.name)}*\n${slackEscape(f.value)}` }));
  const blocks: Record<string, unknown>[] = [section];
  if (n.link) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: 'acknowledge',
          text: { type: 'plain_text', text: n.link.text },
          url: n.link.href,
          style: 'primary',
        },
      ],
    });
  }
  // The top-level text is what notifications and clients without blocks show.
  const fallback = `${slackEscape(n.title)}${n.link ? ` <${n.link.href}|${slackEscape(n.link.text)}>` : ''}`;
  return { text: fallback, blocks };
}

const TEAMS_COLOURS: Record<PagerDutySeverity, string> = {
  critical: 'C4314B',
  error: 'E8590C',
  warning: 'FFB900',
  info: '0076D7',
};

/** A Microsoft Teams incoming webhook's MessageCard; the link is an OpenUri action. */
export function teamsCard(n: Notice): Record<string, unknown> {
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: n.title,
    themeColor: TEAMS_COLOURS[n.severity],
    title: n.title,
    text: n.text,
    ...(n.facts?.length ? { sections: [{ facts: n.facts.map((f) => ({ name: f.name, value: f.value })) }] } : {}),
    ...(n.link
      ? { potentialAction: [{ '@type': 'OpenUri', name: n.link.text, targets: [{ os: 'default', uri: n.link.href }] }] }
      : {}),
  };
}

/** A PagerDuty Events API v2 event: a `trigger` with the notice, or the `resolve` of its alert. */
export function pagerDutyEvent(routingKey: string, n: Notice, action: 'trigger' | 'resolve'): Record<string, unknown> {
  if (action === 'resolve') return { routing_key: routingKey, event_action: 'resolve', dedup_key: n.dedupKey };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: n.dedupKey,
    payload: {
      summary: n.title.slice(0, 1024),
      source: 'gatehouse',
      severity: n.severity,
      timestamp: n.at.toISOString(),
      ...(n.facts?.length ? { custom_details: Object.fromEntries(n.facts.map((f) => [f.name, f.value])) } : {}),
    },
    client: 'Gatehouse',
    ...(n.link ? { links: [{ href: n.link.href, text: n.link.text }] } : {}),
  };
}

/** An email: the title as subject, the text, then the link on a line of its own. */
export function emailOf(n: Notice): { subject: string; text: string } {
  return { subject: n.title, text: n.link ? `${n.text}\n\n${n.link.text}: ${n.link.href}\n` : n.text };
}

/** A signed HTTP delivery's body (Standard Webhooks' shape). */
export function httpBody(n: Notice): string {
  return JSON.stringify({ type: n.type, timestamp: n.at.toISOString(), data: n.data });
}

/** Whether the kind took the message: a 2xx, or for email handed to the mail service without an error. */
export function accepted(kind: NotifyKind, answer: OutboundAnswer): boolean {
  return kind === 'email'
    ? answer.error === null
    : answer.status !== null && answer.status >= 200 && answer.status < 300;
}

/** Sends the notice in the kind's format to the configured address; reports the answer, never throws for the receiver's faults. */
export async function sendNotice(
  kind: NotifyKind,
  c: SealedConfig,
  n: Notice,
  policy: OutboundPolicy,
): Promise<OutboundAnswer> {
  const post = (
    url: string,
    body: string,
    headers: Record<string, string> = { 'content-type': 'application/json' },
    timeoutMs = 15_000,
  ) => postOutbound(url, { headers, body, timeoutMs }, policy);
  switch (kind) {
    case 'slack':
      return post(c.webhook_url!, JSON.stringify(slackMessage(n)));
    case 'teams':
      return post(c.webhook_url!, JSON.stringify(teamsCard(n)));
    case 'pagerduty': {
      const triggered = await post(c.endpoint!, JSON.stringify(pagerDutyEvent(c.routing_key!, n, 'trigger')));
      if (n.resolveAtOnce && accepted(kind, triggered))
        await post(c.endpoint!, JSON.stringify(pagerDutyEvent(c.routing_key!, n, 'resolve')), undefined, 10_000);
      return triggered;
    }
    case 'email': {
      const started = performance.now();
      const latency = () => Math.round(performance.now() - started);
      try {
        await mailer().send({ to: c.to!, ...emailOf(n) });
        return { status: null, latencyMs: latency(), error: null, bodyExcerpt: '' };
      } catch (err) {
        return { status: null, latencyMs: latency(), error: (err as Error).message, bodyExcerpt: '' };
      }
    }
    case 'http': {
      const body = httpBody(n);
      return post(c.url!, body, signedHeaders(n.id, n.at, body, [c.secret!]));
    }
  }
}
