/**
 * A local HTTP server standing for a feed's publisher: it serves documents by path (real captures
 * of the feeds, test/fixtures/feeds), answers `/busy` with a 503 and anything else with a 404, and
 * counts the requests of each path. The query string is not part of the path.
 *
 * A stream (RIS Live's HTTP stream) is served as its publisher serves it: the captured lines are
 * written, then the connection stays open and nothing more comes, so a reader must stop on its
 * own bounds. The headers of each path's last request are kept (a stream's filter is one).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FeedServer {
  base: string;
  hits: Record<string, number>;
  /** The headers of each path's last request. */
  headers: Record<string, IncomingHttpHeaders>;
  close(): Promise<void>;
}

/** A vendored capture of a feed (test/fixtures/feeds/<path>). */
export const feedFixture = (path: string) => readFileSync(new URL(`../fixtures/feeds/${path}`, import.meta.url));

export async function startFeedServer(
  docs: Record<string, Buffer>,
  streams: Record<string, Buffer> = {},
): Promise<FeedServer> {
  const hits: Record<string, number> = {};
  const headers: Record<string, IncomingHttpHeaders> = {};
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    headers[path] = req.headers;
    const doc = docs[path];
    const stream = streams[path];
    if (stream) {
      // Every line ends with its newline, as the stream sends them; then the stream goes quiet, open.
      const text = stream.toString('utf8');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(text.endsWith('\n') ? text : `${text}\n`);
      open.add(res);
      res.on('close', () => open.delete(res));
    } else if (path === '/busy') res.writeHead(503).end('busy');
    else if (doc)
      res.writeHead(200, { 'content-type': path.endsWith('.html') ? 'text/html' : 'application/json' }).end(doc);
    else res.writeHead(404).end();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    headers,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
