/**
 * The first hour of a new user, as the README's "First hour" section walks it: register, click
 * Confirm on the link mailed, log in, read `me`, create an environment, a zone and a sensor, mint
 * an OPERATOR key, post events with it, raise an incident, open its acknowledgement link in a real browser and click the button,
 * and see the incident acknowledged. Every id the walk uses comes from an API response (the
 * tenant id from `me`); the link comes from what the person was sent. Used by
 * `npm run walkthrough` (bin/walkthrough.ts) and by test/e2e/walkthrough.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { confirmationLinkMailed } from './local-mail.js';

export interface WalkOptions {
  /** The running service, e.g. http://127.0.0.1:3000. */
  base: string;
  /** Where `npm start` writes what people are sent (`<data dir>/logs/notifications.jsonl`). */
  notificationsFile: string;
  browser: Browser;
  /** Each step as it is done. */
  say?: (line: string) => void;
}

export interface WalkResult {
  tenantId: string;
  incidentId: string;
  /** The incident's status after the click, read back through the API. */
  finalStatus: string;
  steps: string[];
}

class WalkError extends Error {}

export async function walkthrough(options: WalkOptions): Promise<WalkResult> {
  const steps: string[] = [];
  const say = (line: string) => {
    steps.push(line);
    options.say?.(line);
  };
  const api = async <T = unknown>(
    method: string,
    path: string,
    init: { body?: unknown; token?: string; apiKey?: string } = {},
  ): Promise<T> => {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.apiKey) headers['x-api-key'] = init.apiKey;
    const res = await fetch(new URL(path, options.base), {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new WalkError(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };

  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `ops-${stamp}@harbour.example`;
  const password = 'Harbour-watch-1';
  await api('POST', '/api/v1/portal/register', {
    body: { email, password, organization_name: `Harbour Watch ${stamp}` },
  });
  say(`registered ${email}`);
  // The confirmation link is mailed: `<data dir>/mail`, beside the `<data dir>/logs` of the notifications.
  const confirmLink = await confirmationLinkMailed(join(dirname(dirname(options.notificationsFile)), 'mail'), email);
  const confirmPage = await options.browser.newPage();
  try {
    await confirmPage.goto(confirmLink);
    await Promise.all([
      confirmPage.waitForURL(/confirm\?token=/),
      confirmPage.getByRole('button', { name: 'Confirm' }).click(),
    ]);
    say(`clicked Confirm in the mailed link: "${await confirmPage.getByRole('status').innerText()}"`);
  } finally {
    await confirmPage.close();
  }
  const login = await api<{ access_token: string; role: string }>('POST', '/api/v1/portal/login', {
    body: { email, password },
  });
  const token = login.access_token;
  say(`logged in as ${login.role}`);
  const me = await api<{ tenant: { tenant_id: string; plan: string } }>('GET', '/api/v1/portal/me', { token });
  const tenantId = me.tenant.tenant_id;
  say(`me: tenant ${tenantId} on the ${me.tenant.plan} plan`);

  const env = await api<{ environment_id: string }>('POST', '/api/v1/environments', {
    token,
    body: { name: 'North harbour', type: 'port' },
  });
  const zone = await api<{ zone_id: string }>('POST', '/api/v1/zones', {
    token,
    body: {
      environment_id: env.environment_id,
      name: 'Quay 4',
      security_level: 4,
      geofence: { type: 'Circle', center: [10.7522, 59.9075], radius_m: 150 },
    },
  });
  const sensor = await api<{ sensor_id: string }>('POST', '/api/v1/sensors', {
    token,
    body: {
      environment_id: env.environment_id,
      name: 'Quay 4 camera',
      type: 'camera',
      location: { lat: 59.9075, lon: 10.7522 },
      zone_id: zone.zone_id,
    },
  });
  const zones = await api('GET', `/api/v1/zones?tenant_id=${tenantId}&environment_id=${env.environment_id}`, { token });
  if (!Array.isArray(zones) || zones.length !== 1)
    throw new WalkError(`the environment lists ${JSON.stringify(zones)} as its zones`);
  say(`created environment, zone ${zone.zone_id} and sensor ${sensor.sensor_id}`);

  const key = await api<{ api_key: string; role: string }>('POST', '/api/v1/portal/api-keys', {
    token,
    body: { name: 'quay sensors', role: 'OPERATOR' },
  });
  say(`minted an ${key.role} key`);
  const events: { event_id: string; incident_id?: string | null }[] = [];
  for (const type of ['motion.detected', 'intrusion.detected']) {
    events.push(
      await api<(typeof events)[number]>('POST', '/api/v1/events', {
        apiKey: key.api_key,
        body: {
          type,
          environment_id: env.environment_id,
          sensor_id: sensor.sensor_id,
          location: { lat: 59.9075, lon: 10.7522 },
          severity: 'high',
        },
      }),
    );
  }
  const listed = await api('GET', `/api/v1/events?tenant_id=${tenantId}&zone_id=${zone.zone_id}`, { token });
  if (!Array.isArray(listed) || listed.length !== events.length)
    throw new WalkError(`the zone lists ${JSON.stringify(listed).slice(0, 200)} as its events`);
  say(`posted ${events.length} events with the key; the zone lists them`);

  const incident = await api<{ incident_id: string; status: string; severity: string }>('POST', '/api/v1/incidents', {
    token,
    body: {
      title: 'Intruder on quay 4',
      severity: 'high',
      environment_id: env.environment_id,
      location: { lat: 59.9075, lon: 10.7522 },
      event_ids: events.filter((e) => !e.incident_id).map((e) => e.event_id),
    },
  });
  say(`raised incident ${incident.incident_id} (${incident.status}, ${incident.severity})`);

  const link = await waitForLink(options.notificationsFile, incident.incident_id);
  say(`the link sent to ${link.to} arrived`);
  const page = await options.browser.newPage();
  try {
    await page.goto(new URL(link.path, options.base).href);
    const heading = await page.locator('h1').textContent();
    if (heading !== 'Intruder on quay 4') throw new WalkError(`the link's page shows "${heading}"`);
    await Promise.all([
      page.waitForURL(/acknowledge\?token=/),
      page.getByRole('button', { name: 'Acknowledge' }).click(),
    ]);
    say(`clicked Acknowledge: "${await page.getByRole('status').innerText()}"`);
  } finally {
    await page.close();
  }
  const after = await api<{ status: string }>('GET', `/api/v1/incidents/${incident.incident_id}`, { token });
  say(`the incident is ${after.status}`);
  return { tenantId, incidentId: incident.incident_id, finalStatus: after.status, steps };
}

/** The link of the first notification sent about the incident (sending follows the change: a moment). */
async function waitForLink(file: string, incidentId: string): Promise<{ path: string; to: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const sent = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { incident_id: string; acknowledge_path: string; to: { roles: string[] } })
          .find((n) => n.incident_id === incidentId)
      : undefined;
    if (sent) return { path: sent.acknowledge_path, to: sent.to.roles.join(', ') };
    if (Date.now() > deadline)
      throw new WalkError(`no notification about incident ${incidentId} in ${file} within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
