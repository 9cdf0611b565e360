/**
 * Each integration kind's own format for an incident notification (shared/domain/integrations/messages.ts,
 * shared/domain/incidents/notification-delivery.ts): what Slack, Microsoft Teams, PagerDuty's
 * Events API v2, email and a Standard Webhooks receiver are sent, without sending it.
 */
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../shared/config.js';
import { incidentNotice, type NotificationDetail } from '../../shared/domain/incidents/notification-delivery.js';
import {
  emailOf,
  httpBody,
  pagerDutyEvent,
  slackMessage,
  teamsCard,
  type Notice,
} from '../../shared/domain/integrations/messages.js';
import { newSigningSecret, signedHeaders } from '../../shared/domain/webhooks/signing.js';

const URL_ =
  'https://api.example.com/prod/api/v1/incidents/0190c5d1-0000-7000-8000-000000000001/acknowledge?token=ack_abc';
const detail = (over: Partial<NotificationDetail> = {}): NotificationDetail & { tenant_id: string } => ({
  message_id: '0190c5d1-0000-7000-8000-0000000000aa',
  tenant_id: '0190c5d1-0000-7000-8000-0000000000bb',
  incident_id: '0190c5d1-0000-7000-8000-000000000001',
  title: 'Fence cut <north> gate & pier',
  severity: 'high',
  escalation_level: 0,
  notify_roles: ['OPERATOR'],
  integration_ids: [],
  email_recipients: [],
  link_ttl_minutes: 60,
  ...over,
});
const at = new Date('2026-11-21T13:45:00.123Z');
const link = {
  path: '/api/v1/incidents/x/acknowledge?token=ack_abc',
  url: URL_,
  expiresAt: '2026-11-21T14:45:00.123Z',
};
const notice = (over: Partial<NotificationDetail> = {}): Notice => incidentNotice(detail(over), link, at);

describe('an incident notice', () => {
  it('says the severity, the level and the title; level 0 is the confirmation', () => {
    expect(notice().title).toBe('HIGH incident: Fence cut <north> gate & pier');
    expect(notice({ escalation_level: 2 }).title).toBe(
      'HIGH incident, escalation level 2: Fence cut <north> gate & pier',
    );
    expect(notice().text).toContain('Escalation level: 0 (confirmed)');
    expect(notice({ escalation_level: 1 }).text).toContain('Escalation level: 1 (not acknowledged in time)');
  });
});

describe('Slack incoming webhook', () => {
  it('Block Kit: a section with the text and facts (mrkdwn-escaped), a link button, and text for notifications', () => {
    const m = slackMessage(notice()) as { text: string; blocks: Record<string, any>[] };
    expect(m.blocks).toHaveLength(2);
    expect(m.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    expect(m.blocks[0]!.text.text).toMatch(/^\*HIGH incident: Fence cut &lt;north&gt; gate &amp; pier\*\n/);
    expect(m.blocks[0]!.fields).toEqual([
      { type: 'mrkdwn', text: '*Severity*\nHIGH' },
      { type: 'mrkdwn', text: '*Escalation level*\n0' },
      { type: 'mrkdwn', text: '*Link valid until*\n2026-11-21T14:45:00.123Z' },
    ]);
    expect(m.blocks[1]).toEqual({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: 'acknowledge',
          text: { type: 'plain_text', text: 'Acknowledge' },
          url: URL_,
          style: 'primary',
        },
      ],
    });
    expect(m.text).toBe(`HIGH incident: Fence cut &lt;north&gt; gate &amp; pier <${URL_}|Acknowledge>`);
  });

  it('a message without link or facts (the test message) is its text alone', () => {
    expect(slackMessage({ ...notice(), link: undefined, facts: undefined, text: 'hello' })).toEqual({ text: 'hello' });
  });
});

describe('Microsoft Teams incoming webhook', () => {
  it('a MessageCard coloured by severity, with facts and an OpenUri action to the link', () => {
    const card = teamsCard(notice({ severity: 'critical' }));
    expect(card).toMatchObject({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: 'CRITICAL incident: Fence cut <north> gate & pier',
      title: 'CRITICAL incident: Fence cut <north> gate & pier',
      themeColor: 'C4314B',
      sections: [
        {
          facts: [
            { name: 'Severity', value: 'CRITICAL' },
            { name: 'Escalation level', value: '0' },
            { name: 'Link valid until', value: link.expiresAt },
          ],
        },
      ],
      potentialAction: [{ '@type': 'OpenUri', name: 'Acknowledge', targets: [{ os: 'default', uri: URL_ }] }],
    });
  });
});

describe('PagerDuty Events API v2', () => {
  it('a trigger: one alert per incident (dedup_key), the severity mapped, the link among its links', () => {
    expect(pagerDutyEvent('R'.repeat(32), notice(), 'trigger')).toEqual({
      routing_key: 'R'.repeat(32),
      event_action: 'trigger',
      dedup_key: 'gatehouse-0190c5d1-0000-7000-8000-000000000001',
      payload: {
        summary: 'HIGH incident: Fence cut <north> gate & pier',
        source: 'gatehouse',
        severity: 'error',
        timestamp: '2026-11-21T13:45:00.123Z',
        custom_details: { Severity: 'HIGH', 'Escalation level': '0', 'Link valid until': link.expiresAt },
      },
      client: 'Gatehouse',
      links: [{ href: URL_, text: 'Acknowledge' }],
    });
    const severities = ['critical', 'high', 'medium', 'low'].map(
      (severity) => (pagerDutyEvent('k', notice({ severity }), 'trigger').payload as { severity: string }).severity,
    );
    expect(severities).toEqual(['critical', 'error', 'warning', 'info']);
    // Every level of one incident is told on the same alert.
    expect(pagerDutyEvent('k', notice({ escalation_level: 3 }), 'trigger').dedup_key).toBe(
      pagerDutyEvent('k', notice(), 'trigger').dedup_key,
    );
  });

  it('a summary is cut to the 1024 characters PagerDuty takes; a resolve names only the alert', () => {
    const long = pagerDutyEvent('k', notice({ title: 'x'.repeat(2000) }), 'trigger').payload as { summary: string };
    expect(long.summary).toHaveLength(1024);
    expect(pagerDutyEvent('k', notice(), 'resolve')).toEqual({
      routing_key: 'k',
      event_action: 'resolve',
      dedup_key: 'gatehouse-0190c5d1-0000-7000-8000-000000000001',
    });
  });
});

describe('email', () => {
  it('plain text, the title as subject, the link on a line of its own', () => {
    const mail = emailOf(notice());
    expect(mail.subject).toBe('HIGH incident: Fence cut <north> gate & pier');
    expect(mail.text.split('\n')).toEqual(
      expect.arrayContaining(['Fence cut <north> gate & pier', 'Severity: HIGH', `Acknowledge: ${URL_}`]),
    );
  });
});

describe('signed HTTP endpoint', () => {
  it('{type, timestamp, data} signed per Standard Webhooks with the integration secret, verified by the standardwebhooks package', () => {
    // Receivers refuse a timestamp more than five minutes off: signed now.
    const now = new Date();
    const n = incidentNotice(detail(), link, now);
    const body = httpBody(n);
    const secret = newSigningSecret();
    const headers = signedHeaders(n.id, n.at, body, [secret]);
    expect(headers['webhook-id']).toBe('msg_0190c5d1-0000-7000-8000-0000000000aa');
    const verified = new Webhook(secret).verify(body, headers);
    expect(verified).toEqual({
      type: 'incident.notification',
      timestamp: now.toISOString(),
      data: {
        notification_id: '0190c5d1-0000-7000-8000-0000000000aa',
        tenant_id: '0190c5d1-0000-7000-8000-0000000000bb',
        incident_id: '0190c5d1-0000-7000-8000-000000000001',
        title: 'Fence cut <north> gate & pier',
        severity: 'high',
        escalation_level: 0,
        // Read from the level for a message written before it said its reason.
        reason: 'confirmed',
        acknowledge_url: URL_,
        link_expires_at: link.expiresAt,
      },
    });
  });
});

describe('PUBLIC_API_URL', () => {
  const base = { TABLE_NAME: 't', BUCKET_NAME: 'b', EVENT_BUS_NAME: 'e', USER_POOL_ID: 'p', USER_POOL_CLIENT_ID: 'c' };
  it('is read without its trailing slash, and must be an http(s) URL', () => {
    expect(
      loadConfig({ ...base, PUBLIC_API_URL: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/' }).publicApiUrl,
    ).toBe('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
    expect(loadConfig(base).publicApiUrl).toBeUndefined();
    expect(() => loadConfig({ ...base, PUBLIC_API_URL: 'ftp://example.com' })).toThrow(/PUBLIC_API_URL/);
    expect(() => loadConfig({ ...base, PUBLIC_API_URL: 'not a url' })).toThrow(/PUBLIC_API_URL/);
  });
});
