/**
 * The interactive documentation: a Swagger UI page and the two files it loads, served from the
 * installed `swagger-ui-dist` package (no CDN).
 *
 * Every URL in the page is relative, so the same page works at `/docs` locally and at
 * `/<stage>/docs` (or under a custom domain's base path) behind API Gateway: from `.../docs`,
 * `docs/swagger-ui.css` resolves to `.../docs/swagger-ui.css` and `openapi.json` to
 * `.../openapi.json`.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Reply } from '../http/reply.js';

/** The only files served, with their content types. Nothing else of the directory is reachable. */
export const DOCS_ASSET_TYPES: ReadonlyMap<string, string> = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
]);

/** Revalidated hourly; the ETag makes that cheap. */
const ASSET_CACHE_CONTROL = 'public, max-age=3600';
const PAGE_CACHE_CONTROL = 'public, max-age=300';

const INIT_SCRIPT = [
  'window.ui = SwaggerUIBundle({',
  "  url: 'openapi.json',",
  "  dom_id: '#swagger-ui',",
  '  deepLinking: true,',
  '  presets: [SwaggerUIBundle.presets.apis],',
  "  layout: 'BaseLayout',",
  '  validatorUrl: null,',
  // Over 150 operations: rendered collapsed, the page shows at once; the box filters by tag.
  "  docExpansion: 'none',",
  '  filter: true,',
  '  defaultModelsExpandDepth: 0,',
  '  displayRequestDuration: true,',
  '});',
].join('\n');

export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<noscript>This page needs JavaScript. The API description itself is at <a href="openapi.json">openapi.json</a>.</noscript>
<script src="docs/swagger-ui-bundle.js" charset="utf-8"></script>
<script>${INIT_SCRIPT}</script>
</body>
</html>
`;

/**
 * Only this page's own files and its one inline script (by hash) run; the UI talks only to this
 * origin. Swagger UI sets inline styles and uses data: images, hence those two allowances.
 */
export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(INIT_SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function docsPageReply(): Reply {
  return {
    text: DOCS_PAGE_HTML,
    contentType: 'text/html; charset=utf-8',
    headers: {
      'Cache-Control': PAGE_CACHE_CONTROL,
      'Content-Security-Policy': DOCS_PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  };
}

/**
 * Where the files are: `DOCS_ASSETS_DIR` in Lambda (the stack copies them next to the bundle),
 * otherwise the installed package. Resolved on first use, so a bundle never needs the package.
 */
export function docsAssetsDir(env: Record<string, string | undefined> = process.env): string {
  if (env.DOCS_ASSETS_DIR) return env.DOCS_ASSETS_DIR;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export interface DocsAsset {
  name: string;
  body: string;
  contentType: string;
  /** Strong ETag of the content. */
  etag: string;
}

/** Read once per container, then served from memory (the bundle is ~1.7 MB of text). */
const cache = new Map<string, Promise<DocsAsset>>();

/** The named asset, or undefined when the name is not one of DOCS_ASSET_TYPES. */
export function loadDocsAsset(name: string, dir: string = docsAssetsDir()): Promise<DocsAsset | undefined> {
  const contentType = DOCS_ASSET_TYPES.get(name);
  if (contentType === undefined) return Promise.resolve(undefined);
  const key = `${dir}\u0000${name}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = readFile(join(dir, name), 'utf8').then((body) => ({
      name,
      body,
      contentType,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
    }));
    // A failed read (a fault: the file should be there) is not remembered; the next call retries.
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

/** Whether an `If-None-Match` header matches `etag` (weak comparison, as for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

/** The reply to `GET /docs/{asset}`: the file, 304 when the client has it, 404 for any other name. */
export async function docsAssetReply(name: string | undefined, ifNoneMatch?: string): Promise<Reply> {
  const asset = name === undefined ? undefined : await loadDocsAsset(name);
  if (!asset) {
    return {
      status: 404,
      json: { detail: `No such documentation file; there are ${[...DOCS_ASSET_TYPES.keys()].join(' and ')}` },
    };
  }
  const headers = { 'Cache-Control': ASSET_CACHE_CONTROL, ETag: asset.etag, 'X-Content-Type-Options': 'nosniff' };
  if (etagMatches(ifNoneMatch, asset.etag)) {
    return { status: 304, text: '', contentType: asset.contentType, headers };
  }
  return { text: asset.body, contentType: asset.contentType, headers };
}
