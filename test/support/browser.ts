/**
 * A real browser for tests of what people open: Debian's Chromium, headless, driven by
 * playwright-core (which downloads no browser of its own). `.ci/run` installs the package
 * `chromium`; CHROMIUM_PATH names another binary.
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  // Root in a container has no user namespace for Chromium's sandbox.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}
