/**
 * The README's first hour (bin/walkthrough-steps.ts) against the test run's server: a new user
 * from registration to an incident acknowledged by clicking its link in headless Chromium.
 * `npm run walkthrough` walks the same steps from a fresh clone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { walkthrough } from '../../bin/walkthrough-steps.js';
import { baseUrl } from '../support/api.js';
import { launchBrowser } from '../support/browser.js';
import { sentFile } from '../support/notifications.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the first hour of a new user', () => {
  it('registers, builds a site, posts events with an OPERATOR key, raises an incident and acknowledges it by clicking its link', async () => {
    const result = await walkthrough({ base: baseUrl(), notificationsFile: sentFile(), browser });
    expect(result.finalStatus).toBe('acknowledged');
    expect(result.steps.at(-2)).toMatch(/^clicked Acknowledge: "Acknowledged through this link at /);
  }, 60_000);
});
