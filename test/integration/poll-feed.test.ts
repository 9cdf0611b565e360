/**
 * One poll of each public feed against a local HTTP server replaying real captures of the feeds
 * (test/fixtures/feeds, each named with its source in SOURCES.md): records with the same ids on a
 * second poll, and every way a poll fails reported, never thrown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEEDS, pollFeed } from '../../shared/domain/connectors/poll-feed.js';
import { feedRecords, storeFeedRecords } from '../../shared/db/feed-records.js';
import { feedFixture, startFeedServer, type FeedServer } from '../support/feed-server.js';

const fixture = feedFixture;
const DOCS: Record<string, Buffer> = {
  '/kp.json': fixture('swpc-kp/noaa-planetary-k-index.2026-08-09.json'),
  '/quakes.geojson': fixture('usgs-quakes/all_day.2022-09-29.trimmed.geojson'),
  '/kev.json': fixture('cisa-kev/known_exploited_vulnerabilities.2025.08.25.trimmed.json'),
  '/nws.json': fixture('nws-alerts/alerts-zone.2023-09-13.json'),
  '/nws.xml': fixture('nws-alerts/cap-atom-us.2017-09-02.trimmed.xml'),
  '/maintenance.html': Buffer.from('<!doctype html><title>Down for maintenance</title>'),
  '/huge.json': Buffer.from(`[${'1,'.repeat(9 * 1024 * 1024)}1]`),
};

const local = { allowLoopback: true };
let server: FeedServer;
let base: string;

beforeAll(async () => {
  server = await startFeedServer(DOCS);
  base = server.base;
});
afterAll(() => server.close());

describe('pollFeed', () => {
  it.each([
    ['swpc-kp', '/kp.json'],
    ['usgs-quakes', '/quakes.geojson'],
    ['cisa-kev', '/kev.json'],
    ['nws-alerts', '/nws.json'],
    ['nws-alerts', '/nws.xml'],
  ] as const)("polls %s: the parser's records of the document, with the same ids again", async (feed, path) => {
    const first = await pollFeed(feed, local, `${base}${path}`);
    if (first.status !== 'ok') throw new Error(first.error);
    const direct = FEEDS[feed].parse(DOCS[path]!.toString('utf8'), `${base}${path}`);
    expect(first.records.length).toBeGreaterThan(0);
    expect(first.records).toEqual(direct.records);
    expect(first.problems).toEqual(direct.problems);
    expect(first.bytes).toBe(DOCS[path]!.length);
    const second = await pollFeed(feed, local, `${base}${path}`);
    expect(second.status === 'ok' && second.records.map((r) => r.id)).toEqual(first.records.map((r) => r.id));
  });

  it('reports, never throws: an error status, a page that is not the format, a document past its bound, a refused address', async () => {
    expect(await pollFeed('cisa-kev', local, `${base}/busy`)).toMatchObject({
      status: 'failed',
      httpStatus: 503,
      error: 'the server answered 503',
    });
    const html = await pollFeed('usgs-quakes', local, `${base}/maintenance.html`);
    expect(html).toMatchObject({ status: 'failed', httpStatus: 200 });
    expect(html.status === 'failed' && html.error).toMatch(/JSON/i);
    const huge = await pollFeed('swpc-kp', local, `${base}/huge.json`);
    expect(huge).toMatchObject({
      status: 'failed',
      error: `the document is longer than ${2 * 1024 * 1024} bytes, the bound of swpc-kp`,
    });
    // The deployment's policy: no loopback, so a feed URL pointing inside is refused at connect.
    const refused = await pollFeed('swpc-kp', { allowLoopback: false }, `${base}/kp.json`);
    expect(refused).toMatchObject({ status: 'failed', httpStatus: null });
    expect(refused.status === 'failed' && refused.error).toMatch(/^refused/);
    // Kp's parser refuses a USGS document: the wrong feed at a URL fails the poll.
    const wrong = await pollFeed('swpc-kp', local, `${base}/quakes.geojson`);
    expect(wrong.status).toBe('failed');
  });
});

describe('storeFeedRecords', () => {
  it("keeps a poll's records once: a second poll stores nothing, a changed record is replaced", async () => {
    // A feed name of this run's own, so the platform partition starts empty.
    const feed = `usgs-quakes-test-${Math.random().toString(36).slice(2, 8)}`;
    const poll = await pollFeed('usgs-quakes', local, `${base}/quakes.geojson`);
    if (poll.status !== 'ok') throw new Error(poll.error);
    const n = poll.records.length;
    expect(await storeFeedRecords(feed, poll.records, '2026-11-25T06:00:00.000Z', null)).toEqual({
      stored: n,
      updated: 0,
      unchanged: 0,
    });
    const again = await pollFeed('usgs-quakes', local, `${base}/quakes.geojson`);
    if (again.status !== 'ok') throw new Error(again.error);
    expect(await storeFeedRecords(feed, again.records, '2026-11-25T06:05:00.000Z', null)).toEqual({
      stored: 0,
      updated: 0,
      unchanged: n,
    });
    // USGS revises an event (a new magnitude): that record alone is written again.
    const [first, ...rest] = again.records;
    const revised = { ...first!, magnitude: (first!.magnitude ?? 0) + 0.1 };
    expect(await storeFeedRecords(feed, [revised, ...rest], '2026-11-25T06:10:00.000Z', null)).toEqual({
      stored: 0,
      updated: 1,
      unchanged: n - 1,
    });
    const kept = await feedRecords<{ id: string; magnitude: number | null }>(feed, 1000);
    expect(kept).toHaveLength(n);
    expect(kept.find((r) => r.id === first!.id)!.magnitude).toBe(revised.magnitude);
  });
});
