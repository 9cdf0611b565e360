/**
 * A local HTTP server standing for a feed's publisher: it serves documents by path (real captures
 * of the feeds, test/fixtures/feeds), answers `/busy` with a 503 and anything else with a 404, and
 * counts the requests of each path. The query string is not part of the path.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FeedServer {
  base: string;
  hits: Record<string, number>;
  close(): Promise<void>;
}

/** A vendored capture of a feed (test/fixtures/feeds/<path>). */
export const feedFixture = (path: string) => readFileSync(new URL(`../fixtures/feeds/${path}`, import.meta.url));

export async function startFeedServer(docs: Record<string, Buffer>): Promise<FeedServer> {
  const hits: Record<string, number> = {};
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    const doc = docs[path];
    if (path === '/busy') res.writeHead(503).end('busy');
    else if (doc) res.writeHead(200, { 'content-type': path.endsWith('.html') ? 'text/html' : 'application/json' }).end(doc);
    else res.writeHead(404).end();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
