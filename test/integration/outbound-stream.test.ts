/**
 * The bounded read of an endless stream (shared/adapters/outbound-http.ts `streamOutbound`) and a
 * poll of RIS Live built on it, against the local feed server replaying the real RIS Live capture
 * (test/fixtures/feeds/ripe-ris, BGPKIT's) and then keeping the connection open, as RIS Live does:
 * a read ends at its time or size bound with what it got, which is no error; the guard refuses
 * what it refuses for a document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamOutbound } from '../../shared/adapters/outbound-http.js';
import { pollFeed } from '../../shared/domain/connectors/poll-feed.js';
import { parseRisLive } from '../../shared/feeds/ripe-ris.js';
import { feedFixture, startFeedServer, type FeedServer } from '../support/feed-server.js';

const RIS = feedFixture('ripe-ris/ris-live-messages.bgpkit.ndjson');
const local = { allowLoopback: true };
let server: FeedServer;

beforeAll(async () => {
  server = await startFeedServer({}, { '/stream': RIS });
});
afterAll(() => server.close());

describe('streamOutbound', () => {
  it('reads a stream that never ends for its window, and stops there with every line it got', async () => {
    const read = await streamOutbound(
      `${server.base}/stream`,
      { windowMs: 700, maxBytes: 1024 * 1024, headers: { 'x-ris-subscribe': '{"type":"UPDATE"}' } },
      local,
    );
    expect(read).toMatchObject({ status: 200, error: null, truncated: false, stopped: 'window' });
    expect(read.body.toString('utf8')).toBe(RIS.toString('utf8'));
    expect(server.headers['/stream']?.['x-ris-subscribe']).toBe('{"type":"UPDATE"}');
  });

  it('stops at its size bound before the window, cutting the stream there', async () => {
    const read = await streamOutbound(`${server.base}/stream`, { windowMs: 30_000, maxBytes: 1000 }, local);
    expect(read).toMatchObject({ status: 200, error: null, truncated: true, stopped: 'size' });
    expect(read.body.length).toBe(1000);
  });

  it('is refused where a document would be, before anything is sent', async () => {
    const before = server.hits['/stream'] ?? 0;
    const read = await streamOutbound(
      `${server.base}/stream`,
      { windowMs: 500, maxBytes: 1000 },
      { allowLoopback: false },
    );
    expect(read).toMatchObject({ status: null, stopped: null, error: expect.stringMatching(/^refused/) });
    expect(server.hits['/stream'] ?? 0).toBe(before);
  });
});

describe('pollFeed of ris-live', () => {
  it('ends a poll of the endless stream at its window with the updates read, as the parser reads them', async () => {
    const polled = await pollFeed('ris-live', local, `${server.base}/stream`, 5_000, { windowMs: 600 });
    if (polled.status !== 'ok') throw new Error(polled.error);
    const direct = parseRisLive(RIS.toString('utf8'), `${server.base}/stream`);
    expect(polled.records).toEqual(direct.records);
    expect(polled.records.map((r) => r.prefix)).toEqual([
      '2602:fd9e:f00::/40',
      '64.68.236.0/22',
      '102.66.116.0/24',
      '2605:de00:bb::/48',
    ]);
  });

  it('drops the line a size bound cut, and keeps the whole ones before it', async () => {
    // The first two lines are 549 and 342 bytes with their newlines: 1,000 bytes cut the third.
    const lines = RIS.toString('utf8').split('\n');
    expect(Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`)).toBe(891);
    const polled = await pollFeed('ris-live', local, `${server.base}/stream`, 5_000, {
      windowMs: 30_000,
      maxBytes: 1000,
    });
    if (polled.status !== 'ok') throw new Error(polled.error);
    expect(polled.bytes).toBe(891);
    expect(polled.problems).toEqual([]);
    expect(polled.records.map((r) => r.prefix)).toEqual(['2602:fd9e:f00::/40', '64.68.236.0/22']);
  });
});
