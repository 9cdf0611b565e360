/**
 * The acknowledgement link as a person uses it: opened in a real browser (headless Chromium), read,
 * and acknowledged with its button. Opening it changes nothing; each state of a link has its page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { baseUrl, call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { launchBrowser } from '../support/browser.js';
import { newEnvironment, newSensor, newZone } from '../support/sites.js';
import { ackPathOf } from '../support/notifications.js';
import { putAckToken } from '../../shared/db/incidents.js';
import { transactWrite } from '../../shared/db/transact.js';
import { hashToken, issueAckToken, linkToken } from '../../shared/domain/incidents/ack-token.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(org: RegisteredTenant, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/incidents', {
    token: org.token,
    body: { title: 'Fence cut at the north gate', severity: 'high', location_text: 'North gate, Pier 4', ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { incident_id: string; created_at: string };
}

const statusOf = async (org: RegisteredTenant, id: string) =>
  (await call('GET', `/api/v1/incidents/${id}`, { token: org.token })).body.status;

describe('incidents.acknowledge.page', () => {
  it('says where an incident told no place is: its zone and its event\'s location, not "not given"', async () => {
    const org = await registerTenant('AckPlace');
    const env = await newEnvironment(org);
    await newZone(org, env.environment_id, { name: 'Quay 4' });
    const sensor = await newSensor(org, env.environment_id);
    const event = await call('POST', '/api/v1/events', {
      token: org.token,
      body: { type: 'motion.detected', sensor_id: sensor.sensor_id },
    });
    expect(event.status).toBe(201);
    expect(event.body.matched_zone_ids).toHaveLength(1);
    const res = await call('POST', '/api/v1/incidents', {
      token: org.token,
      body: { title: 'Movement on the quay', severity: 'high', event_ids: [event.body.event_id] },
    });
    expect(res.status, res.text).toBe(201);
    const page = await (await fetch(new URL(await ackPathOf(res.body.incident_id), baseUrl()))).text();
    expect(page).toContain('<dt>Zone</dt><dd>Quay 4</dd>');
    expect(page).toContain('<dt>Location</dt><dd>59.90500, 10.70500 (where its event was)</dd>');
    expect(page).not.toContain('not given');
  });

  it('shows the incident, changes nothing when opened, and acknowledges when its button is clicked', async () => {
    const org = await registerTenant('AckPage');
    const incident = await open(org);
    const path = await ackPathOf(incident.incident_id);

    // A mail scanner's GET: an HTML page, twice, and the incident is still waiting.
    for (let i = 0; i < 2; i++) {
      const scan = await fetch(new URL(path, baseUrl()));
      expect(scan.status).toBe(200);
      expect(scan.headers.get('content-type')).toMatch(/^text\/html/);
      expect(scan.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await scan.text()).toContain('Fence cut at the north gate');
    }
    expect(await statusOf(org, incident.incident_id)).toBe('confirmed');

    const page = await browser.newPage();
    try {
      await page.goto(new URL(path, baseUrl()).href);
      await expect(page.locator('h1').textContent()).resolves.toBe('Fence cut at the north gate');
      const facts = await page.locator('dl').innerText();
      expect(facts).toContain('HIGH');
      expect(facts).toContain('North gate, Pier 4');
      expect(facts).toContain(`${incident.created_at.slice(0, 10)} ${incident.created_at.slice(11, 16)} UTC`);
      expect(facts).toMatch(/waiting for acknowledgement/);

      await Promise.all([
        page.waitForURL(/acknowledge\?token=/),
        page.getByRole('button', { name: 'Acknowledge' }).click(),
      ]);
      await expect(page.getByRole('status').innerText()).resolves.toMatch(
        /^Acknowledged through this link at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
      );
      expect(await page.getByRole('button').count()).toBe(0);
      expect(await statusOf(org, incident.incident_id)).toBe('acknowledged');

      // Reloading shows the same (a GET, not a second POST); a program's POST of the used link is refused.
      await page.reload();
      await expect(page.getByRole('status').innerText()).resolves.toMatch(/^Acknowledged through this link/);
      expect((await call('POST', path)).status).toBe(403);
    } finally {
      await page.close();
    }
    const replay = await call('GET', `/api/v1/replay/${incident.incident_id}`, { token: org.token });
    expect(replay.body.timeline.filter((e: { kind: string }) => e.kind === 'acknowledged')).toHaveLength(1);
  });

  it('a wrong token, an expired link and an incident already resolved each show a page that says so, without a button', async () => {
    const org = await registerTenant('AckStates');
    const incident = await open(org, { title: '<script>alert(1)</script> tampered lock' });
    const path = await ackPathOf(incident.incident_id);
    const page = await browser.newPage();
    try {
      // The title is shown as text, never run as markup.
      await page.goto(new URL(path, baseUrl()).href);
      await expect(page.locator('h1').textContent()).resolves.toBe('<script>alert(1)</script> tampered lock');

      await page.goto(new URL(`${path.slice(0, -3)}xyz`, baseUrl()).href);
      await expect(page.locator('h1').textContent()).resolves.toBe('This link is not valid');
      expect(await page.getByRole('button').count()).toBe(0);

      // A link minted two hours ago for one hour.
      const issued = issueAckToken(Date.now() - 2 * 3_600_000, 60);
      const token = linkToken(org.tenantId, issued.token);
      await transactWrite([
        putAckToken({
          incident_id: incident.incident_id,
          tenant_id: systemTenant(org.tenantId),
          token_hash: hashToken(token),
          expires_at_iso: issued.expiresAt,
          addressed_to: ['OPERATOR'],
        }),
      ]);
      await page.goto(new URL(`/api/v1/incidents/${incident.incident_id}/acknowledge?token=${token}`, baseUrl()).href);
      await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
      expect(await page.content()).not.toContain('tampered lock');

      // Resolved in the console meanwhile: the valid link has nothing left to do.
      await call('PATCH', `/api/v1/incidents/${incident.incident_id}/respond`, {
        token: org.token,
        body: { status: 'in_progress' },
      });
      await page.goto(new URL(path, baseUrl()).href);
      await expect(page.getByRole('status').innerText()).resolves.toBe(
        'This incident is in progress: there is nothing left to acknowledge.',
      );
      expect(await page.getByRole('button').count()).toBe(0);
    } finally {
      await page.close();
    }
    expect(await statusOf(org, incident.incident_id)).toBe('in_progress');
  });

  it('a form post of a link used meanwhile comes back to the page, which says so', async () => {
    const org = await registerTenant('AckRace');
    const incident = await open(org);
    const path = await ackPathOf(incident.incident_id);
    const page = await browser.newPage();
    try {
      await page.goto(new URL(path, baseUrl()).href);
      // Someone else's program uses the link while the page is open.
      expect((await call('POST', path)).status).toBe(200);
      await Promise.all([
        page.waitForURL(/acknowledge\?token=/),
        page.getByRole('button', { name: 'Acknowledge' }).click(),
      ]);
      await expect(page.getByRole('status').innerText()).resolves.toMatch(/^Acknowledged through this link at/);
    } finally {
      await page.close();
    }
  });
});
