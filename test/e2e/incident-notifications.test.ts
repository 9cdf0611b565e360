/**
 * Incidents reach people (issue 14, item 7), against the running local stack: confirming an
 * incident tells the integrations its tenant's escalation policy names for the level, and the
 * email recipients, each message in its service's own format with an acknowledgement link of its
 * own. The links are followed as a person or a program would; retries send no target twice.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { EventBridgeEvent, SQSEvent } from 'aws-lambda';
import { notificationSender } from '../../shared/adapters/notification-sender.js';
import { baseUrl, call, randomClientIp, registerTenant, type RegisteredTenant } from '../support/api.js';
import { ackLinkIn, mailNow, waitForMail } from '../support/mail.js';
import { notificationsSettled, sentFile } from '../support/notifications.js';
import { startReceiver, type Received, type Receiver } from '../support/receiver.js';
import { outboxOf } from '../support/seed.js';
import { handler as sendNotifications } from '../../functions/workers/send-notifications.js';
import { deliverNotification, type NotificationDetail } from '../../shared/domain/incidents/notification-delivery.js';
import { emailConfigured } from '../../shared/adapters/mailer.js';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import { pipelineDeadline } from '../support/pipeline.js';

/** Paths that answer 503 this many more times before they answer as usual. */
const failing = new Map<string, number>();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((path) => {
    const left = failing.get(path) ?? 0;
    if (left > 0) {
      failing.set(path, left - 1);
      return { status: 503, body: 'busy' };
    }
    return path.startsWith('/pagerduty')
      ? {
          status: 202,
          headers: { 'content-type': 'application/json' },
          body: '{"status":"success","message":"Event processed"}',
        }
      : { status: 200, body: 'ok' };
  });
});
afterAll(() => receiver.close());

const ROUTING_KEY = 'R0UT1NGKEY0000000000000000005678';
const tag = () => Math.random().toString(36).slice(2, 10);

async function add(
  org: RegisteredTenant,
  body: Record<string, unknown>,
): Promise<{ integration_id: string; secret?: string }> {
  const res = await call('POST', '/api/v1/integrations', { token: org.token, body: { name: 'Night shift', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Sets the tenant's escalation policy: the integrations each level names. */
async function policy(org: RegisteredTenant, levels: string[][], notifications: Record<string, unknown> = {}) {
  const body = {
    escalation_policy: {
      levels: levels.map((ids, i) => ({
        after_minutes: 15 * (i + 1),
        notify_roles: ['OPERATOR'],
        integration_ids: ids,
      })),
    },
    ...(Object.keys(notifications).length > 0 ? { notifications } : {}),
  };
  const res = await call('PATCH', '/api/v1/portal/settings', { token: org.token, body });
  expect(res.status, res.text).toBe(200);
}

async function open(org: RegisteredTenant, title: string, severity = 'high'): Promise<{ incident_id: string }> {
  const res = await call('POST', '/api/v1/incidents', { token: org.token, body: { title, severity } });
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('confirmed');
  return res.body;
}

/** What the receiver got on `path`, once there are `count` requests (PIPELINE_WAIT_MS at most). */
async function receivedOn(path: string, count = 1): Promise<Received[]> {
  const deadline = pipelineDeadline();
  for (;;) {
    const got = receiver.received.filter((r) => r.path === path);
    if (got.length >= count) return got;
    if (Date.now() > deadline) throw new Error(`${got.length} request(s) on ${path}, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens a link as a browser would (a GET, from a client address of its own). */
const visit = async (link: string) => {
  const res = await fetch(link, { headers: { 'x-forwarded-for': randomClientIp() } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res.text();
};

const statusOf = async (org: RegisteredTenant, id: string) =>
  (await call('GET', `/api/v1/incidents/${id}`, { token: org.token })).body.status;

describe('incident notifications by email', () => {
  it("confirming an incident mails the level's email integration and each email recipient a link of its own; following one acknowledges", async () => {
    const org = await registerTenant('MailAck');
    const t = tag();
    const duty = `duty-${t}@harbour.example`;
    const soc = `soc-${t}@harbour.example`;
    const mail = await add(org, { kind: 'email', config: { to: [duty] } });
    await policy(org, [[mail.integration_id], []], { email_recipients: [soc] });
    const title = `Fence cut at gate ${t}`;
    const incident = await open(org, title);

    // Two messages land in the local mail folder: the integration's and the recipient's.
    const mails = await waitForMail((m) => m.to.includes(duty) || m.to.includes(soc), 2);
    const toDuty = mails.find((m) => m.to.includes(duty))!;
    const toSoc = mails.find((m) => m.to.includes(soc))!;
    for (const m of [toDuty, toSoc]) {
      expect(m.subject).toBe(`HIGH incident: ${title}`);
      expect(m.text).toContain('Severity: HIGH');
      expect(m.text).toContain('Escalation level: 0 (confirmed)');
    }
    const dutyLink = ackLinkIn(toDuty.text);
    const socLink = ackLinkIn(toSoc.text);
    expect(dutyLink).not.toBe(socLink);
    expect(dutyLink.startsWith(`${baseUrl()}/api/v1/incidents/${incident.incident_id}/acknowledge?token=ack_`)).toBe(
      true,
    );

    // The bus message names who is told, never a link.
    const notes = (await outboxOf(org.tenantId)).filter((m) => m.detail_type === 'incident.notification');
    expect(notes.map((n) => n.detail)).toEqual([
      expect.objectContaining({ integration_ids: [mail.integration_id], email_recipients: [soc], escalation_level: 0 }),
    ]);
    expect(JSON.stringify(notes)).not.toContain('token=');

    // A person opens the link (the page changes nothing), then presses its button (a form post).
    expect(await visit(dutyLink)).toContain(title);
    expect(await statusOf(org, incident.incident_id)).toBe('confirmed');
    const pressed = await fetch(dutyLink, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': randomClientIp() },
      body: '',
      redirect: 'manual',
    });
    expect(pressed.status).toBe(303);
    expect(await visit(new URL(pressed.headers.get('location')!, dutyLink).href)).toContain(
      'Acknowledged through this link',
    );
    expect(await statusOf(org, incident.incident_id)).toBe('acknowledged');
    const replay = await call('GET', `/api/v1/replay/${incident.incident_id}`, { token: org.token });
    expect(replay.body.timeline.find((e: { kind: string }) => e.kind === 'acknowledged')).toMatchObject({
      by: 'token',
      detail: { addressed_to: [`integration:${mail.integration_id}`] },
    });

    // The recipient's own link now has nothing left to do.
    expect(await visit(socLink)).toContain('there is nothing left to acknowledge');
  });
});

describe('incident notifications to integrations', () => {
  it('tells each integration its level names in its own format, each with a working link of its own; a disabled one is skipped', async () => {
    const org = await registerTenant('IntNotify');
    const t = tag();
    const paths = {
      slack: `/services/T${t}/B0000/slacksecret`,
      teams: `/teams/${t}`,
      pagerduty: `/pagerduty/${t}/v2/enqueue`,
      http: `/generic/${t}`,
      off: `/disabled/${t}`,
    };
    const slack = await add(org, { kind: 'slack', config: { webhook_url: `${receiver.url}${paths.slack}` } });
    const teams = await add(org, { kind: 'teams', config: { webhook_url: `${receiver.url}${paths.teams}` } });
    const pd = await add(org, {
      kind: 'pagerduty',
      config: { routing_key: ROUTING_KEY, endpoint: `${receiver.url}${paths.pagerduty}` },
    });
    const http = await add(org, { kind: 'http', config: { url: `${receiver.url}${paths.http}` } });
    const off = await add(org, { kind: 'http', enabled: false, config: { url: `${receiver.url}${paths.off}` } });
    await policy(org, [[slack, teams, pd, http, off].map((i) => i.integration_id), []]);
    const title = `Smoke in <hall> B & C ${t}`;
    const incident = await open(org, title, 'critical');
    const linkPrefix = `${baseUrl()}/api/v1/incidents/${incident.incident_id}/acknowledge?token=ack_`;

    // Slack: Block Kit, the title escaped as mrkdwn wants, the link behind a button.
    const slackBody = JSON.parse((await receivedOn(paths.slack))[0]!.body);
    const button = slackBody.blocks[1].elements[0];
    expect(button).toMatchObject({ type: 'button', text: { type: 'plain_text', text: 'Acknowledge' } });
    expect(button.url.startsWith(linkPrefix)).toBe(true);
    expect(slackBody.blocks[0]).toMatchObject({
      type: 'section',
      text: { type: 'mrkdwn', text: expect.stringContaining(`Smoke in &lt;hall&gt; B &amp; C ${t}`) },
    });
    expect(slackBody.text).toContain(`<${button.url}|Acknowledge>`);

    // Teams: a MessageCard whose OpenUri action opens the link.
    const card = JSON.parse((await receivedOn(paths.teams))[0]!.body);
    expect(card).toMatchObject({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      title: `CRITICAL incident: ${title}`,
    });
    const action = card.potentialAction[0];
    expect(action).toMatchObject({
      '@type': 'OpenUri',
      name: 'Acknowledge',
      targets: [{ os: 'default', uri: expect.stringMatching(/^http/) }],
    });

    // PagerDuty: an Events API v2 trigger, one alert per incident, the link among its links.
    const trigger = JSON.parse((await receivedOn(paths.pagerduty))[0]!.body);
    expect(trigger).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: `gatehouse-${incident.incident_id}`,
      payload: { summary: `CRITICAL incident: ${title}`, source: 'gatehouse', severity: 'critical' },
      links: [{ href: expect.stringMatching(/^http/), text: 'Acknowledge' }],
    });

    // The signed HTTP endpoint: Standard Webhooks, verified with the secret shown at creation.
    const delivery = (await receivedOn(paths.http))[0]!;
    const event = new Webhook(http.secret!).verify(delivery.body, delivery.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event).toMatchObject({
      type: 'incident.notification',
      data: {
        incident_id: incident.incident_id,
        title,
        severity: 'critical',
        escalation_level: 0,
        tenant_id: org.tenantId,
      },
    });

    const links = [button.url, action.targets[0].uri, trigger.links[0].href, event.data.acknowledge_url as string];
    expect(links.every((l) => l.startsWith(linkPrefix))).toBe(true);
    expect(new Set(links).size).toBe(4);
    for (const link of links) expect(await visit(link)).toContain('Smoke in &lt;hall&gt; B &amp; C');

    // A program posts the PagerDuty responder's link: acknowledged. The others have nothing left to do.
    const ack = await call('POST', trigger.links[0].href);
    expect(ack.status).toBe(200);
    expect(ack.body.status).toBe('acknowledged');
    expect(await visit(button.url)).toContain('there is nothing left to acknowledge');

    // The disabled integration was told nothing.
    await notificationsSettled(org.tenantId, incident.incident_id);
    expect(receiver.received.filter((r) => r.path === paths.off)).toEqual([]);

    // Only the receivers hold the links: the incident's items keep their hashes, the bus never saw them.
    const items = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.incident(org.tenantId, incident.incident_id).PK },
        ConsistentRead: true,
      }),
    );
    const kept = JSON.stringify(items.Items) + readFileSync(inject('localEnv').LOCAL_EVENT_BUS_LOG!, 'utf8');
    for (const link of links) expect(kept).not.toContain(new URL(link).searchParams.get('token')!);
    expect(items.Items!.filter((i) => i.entity === 'ACK_TOKEN')).toHaveLength(5);
  });

  it('each escalation tells the level it reaches: level 1 (the SLA breach, or by hand) tells levels[0] again, level 2 tells levels[1]', async () => {
    const org = await registerTenant('IntEscalate');
    const t = tag();
    const first = await add(org, { kind: 'slack', config: { webhook_url: `${receiver.url}/first/${t}` } });
    const second = await add(org, { kind: 'http', config: { url: `${receiver.url}/second/${t}` } });
    const recipient = `duty-${t}@harbour.example`;
    await policy(org, [[first.integration_id], [second.integration_id], []], { email_recipients: [recipient] });
    const incident = await open(org, `Door forced ${t}`);
    await receivedOn(`/first/${t}`);
    for (const level of [1, 2]) {
      const res = await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, {
        token: org.token,
        body: { reason: 'no answer' },
      });
      expect(res.body.escalation_level).toBe(level);
    }
    const toFirst = (await receivedOn(`/first/${t}`, 2)).map((r) => JSON.parse(r.body));
    const headlines = toFirst.map((m) => m.text.split(' <')[0]);
    expect(headlines.sort()).toEqual(
      [`HIGH incident, escalation level 1: Door forced ${t}`, `HIGH incident: Door forced ${t}`].sort(),
    );
    expect(toFirst[0].blocks[1].elements[0].url).not.toBe(toFirst[1].blocks[1].elements[0].url);
    const toSecond = (await receivedOn(`/second/${t}`)).map((r) => JSON.parse(r.body));
    expect(toSecond).toEqual([
      expect.objectContaining({
        type: 'incident.notification',
        data: expect.objectContaining({ escalation_level: 2 }),
      }),
    ]);
    // Escalated by hand, and told so (the mail says it in words): not "not acknowledged in time".
    const mails = await waitForMail((m) => m.to.includes(recipient), 3);
    const atLevel2 = mails.find((m) => m.text.includes('Escalation level: 2'));
    expect(atLevel2?.text).toContain('Escalation level: 2 (escalated by hand)');
    expect(toSecond[0].data.reason).toBe('escalated_manually');
  });
});

describe('incident notifications, retried', () => {
  it('a target that failed is sent again, with a new link, when the worker retries; those that took it are not', async () => {
    const org = await registerTenant('IntRetry');
    const t = tag();
    const flaky = `/flaky/${t}`;
    failing.set(flaky, 1);
    const slack = await add(org, { kind: 'slack', config: { webhook_url: `${receiver.url}${flaky}` } });
    const steady = await add(org, { kind: 'http', config: { url: `${receiver.url}/steady/${t}` } });
    const recipient = `watch-${t}@harbour.example`;
    await policy(org, [[slack.integration_id, steady.integration_id]], { email_recipients: [recipient] });
    const incident = await open(org, `Gate left open ${t}`);

    const tries = (await receivedOn(flaky, 2)).map((r) => JSON.parse(r.body).blocks[1].elements[0].url as string);
    expect(tries[0]).not.toBe(tries[1]);
    await notificationsSettled(org.tenantId, incident.incident_id);
    expect(receiver.received.filter((r) => r.path === `/steady/${t}`)).toHaveLength(1);
    expect(await mailNow((m) => m.to.includes(recipient))).toHaveLength(1);
    const sentToRoles = readFileSync(sentFile(), 'utf8')
      .split('\n')
      .filter((l) => l.includes(incident.incident_id));
    expect(sentToRoles).toHaveLength(1);
    // The link the retry sent works.
    expect((await call('POST', tries[1]!)).body.status).toBe('acknowledged');
  });

  it('the same notification event delivered again (EventBridge delivers at least once) sends nothing', async () => {
    const org = await registerTenant('IntTwice');
    const t = tag();
    const hook = await add(org, { kind: 'http', config: { url: `${receiver.url}/twice/${t}` } });
    const recipient = `twice-${t}@harbour.example`;
    await policy(org, [[hook.integration_id]], { email_recipients: [recipient] });
    const incident = await open(org, `Alarm panel tamper ${t}`);
    await receivedOn(`/twice/${t}`);
    await waitForMail((m) => m.to.includes(recipient));
    await notificationsSettled(org.tenantId, incident.incident_id);

    // The very event the bus delivered, to the worker's own handler again.
    const event = readFileSync(inject('localEnv').LOCAL_EVENT_BUS_LOG!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as EventBridgeEvent<string, NotificationDetail & { tenant_id: string }>)
      .find((e) => e['detail-type'] === 'incident.notification' && e.detail.incident_id === incident.incident_id)!;
    // To the worker's own handler, as its queue would hand the event over again.
    const answer = await sendNotifications({
      Records: [
        {
          messageId: 'again',
          receiptHandle: 'again',
          body: JSON.stringify(event),
          attributes: {},
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:gatehouse-notifications',
          awsRegion: 'us-east-1',
        },
      ],
    } as unknown as SQSEvent);
    expect(answer).toEqual({ batchItemFailures: [] });
    // Why nothing went: every target had it already.
    const report = await deliverNotification(event.detail, notificationSender());
    expect(report).toEqual({
      sent: [],
      already: ['roles', `integration#${hook.integration_id}`, `email#${recipient}`],
      skipped: [],
    });
    expect(receiver.received.filter((r) => r.path === `/twice/${t}`)).toHaveLength(1);
    expect(await mailNow((m) => m.to.includes(recipient))).toHaveLength(1);
    expect(
      readFileSync(sentFile(), 'utf8')
        .split('\n')
        .filter((l) => l.includes(incident.incident_id)),
    ).toHaveLength(1);
  });
});

describe('incident notifications where no email can be sent', () => {
  it('skips email targets with a warning instead of failing (and being retried) for ever', async () => {
    // This test process composed no mailer and has no EMAIL_FROM: as a deployment without a sender.
    expect(emailConfigured()).toBe(false);
    const org = await registerTenant('NoMail');
    const t = tag();
    const incident = await open(org, `Camera offline ${t}`);
    const recipient = `nobody-${t}@harbour.example`;
    const report = await deliverNotification(
      {
        message_id: crypto.randomUUID(),
        tenant_id: org.tenantId,
        incident_id: incident.incident_id,
        title: `Camera offline ${t}`,
        severity: 'high',
        escalation_level: 1,
        notify_roles: ['OPERATOR'],
        integration_ids: [],
        email_recipients: [recipient],
        link_ttl_minutes: 60,
      },
      null,
    );
    expect(report).toEqual({
      sent: [],
      already: [],
      skipped: [{ target: `email#${recipient}`, reason: expect.stringContaining('EMAIL_FROM') }],
    });
    expect(await mailNow((m) => m.to.includes(recipient))).toEqual([]);
  });
});
