/**
 * A real HTTP receiver on loopback for webhook and integration tests: it keeps every request it
 * got and answers as the test says (by path).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedFixture } from './feed-server.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request so far, in order. */
  received: Received[];
  close(): Promise<void>;
}

export type Answer = (path: string) => { status: number; body?: string; headers?: Record<string, string> };

export async function startReceiver(answer: Answer = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body });
      const a = answer(path);
      res.writeHead(a.status, a.headers).end(a.body ?? '');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

/**
 * A receiver serving an indicator list at `/list.csv` (the Stealth Falcon CSV: 95.215.44.37 is
 * one of its indicators), whatever the query, and 200 `ok` at any other path (a webhook).
 */
export function startIndicatorListReceiver(): Promise<Receiver> {
  const csv = feedFixture('indicators/misp-csv.stealth-falcon.csv').toString('utf8');
  return startReceiver((path) =>
    path.startsWith('/list.csv')
      ? { status: 200, body: csv, headers: { 'content-type': 'text/csv' } }
      : { status: 200, body: 'ok' },
  );
}
