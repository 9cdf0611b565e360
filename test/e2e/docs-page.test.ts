/**
 * The interactive documentation as a person opens it: in a real browser (headless Chromium), the
 * page shows every group of operations collapsed (so it renders at once, whatever the size of the
 * document), and its search box filters them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

it('shows the operations grouped and collapsed, with a search box that filters them', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(new URL('/docs', inject('baseUrl')).toString());
    const tags = page.locator('.opblock-tag-section');
    await tags.first().waitFor({ timeout: 30_000 });
    const groups = await tags.count();
    expect(groups).toBeGreaterThan(10);
    // Collapsed: no operation is drawn until its group is opened.
    expect(await page.locator('.opblock-tag-section.is-open').count()).toBe(0);
    expect(await page.locator('.opblock-tag-section .opblock').count()).toBe(0);

    const search = page.locator('input.operation-filter-input');
    await search.fill('incidents');
    const shownTags = () =>
      page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag') ?? ''));
    await expect
      .poll(async () => {
        const shown = await shownTags();
        // The incidents group, and the few whose operations sit under /incidents (drones): not the other groups.
        return shown.includes('incidents') && shown.length <= 3;
      })
      .toBe(true);
  } finally {
    await page.close();
  }
});
