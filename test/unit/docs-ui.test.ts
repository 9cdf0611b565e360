import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCS_ASSET_TYPES,
  DOCS_PAGE_CSP,
  DOCS_PAGE_HTML,
  docsAssetReply,
  docsAssetsDir,
  docsPageReply,
  etagMatches,
  loadDocsAsset,
} from '../../shared/openapi/docs-ui.js';

const packageDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

describe('docs page', () => {
  const urls = [...DOCS_PAGE_HTML.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1] as string);

  it('loads the style and script of swagger-ui and renders openapi.json, by relative URLs only', () => {
    expect(urls).toEqual(expect.arrayContaining(['docs/swagger-ui.css', 'docs/swagger-ui-bundle.js', 'openapi.json']));
    expect(DOCS_PAGE_HTML).toContain("url: 'openapi.json'");
    for (const url of urls) expect(url, url).not.toMatch(/^(\/|https?:|\/\/)/);
    expect(DOCS_PAGE_HTML).not.toMatch(/https?:\/\//); // no CDN, no outside calls
  });

  it.each([
    ['http://127.0.0.1:3000/docs', 'http://127.0.0.1:3000'],
    [
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod/docs',
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod',
    ],
  ])('resolves the URLs under the page at %s', (page, base) => {
    expect(new URL('docs/swagger-ui.css', page).href).toBe(`${base}/docs/swagger-ui.css`);
    expect(new URL('docs/swagger-ui-bundle.js', page).href).toBe(`${base}/docs/swagger-ui-bundle.js`);
    expect(new URL('openapi.json', page).href).toBe(`${base}/openapi.json`);
  });

  it('allows exactly its inline script by hash', () => {
    const inline = /<script>([\s\S]*?)<\/script>/.exec(DOCS_PAGE_HTML)?.[1] ?? '';
    expect(inline).toContain('SwaggerUIBundle(');
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(DOCS_PAGE_CSP).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(DOCS_PAGE_CSP).not.toContain("'unsafe-eval'");
  });

  it('is answered as HTML with its security and cache headers', () => {
    const reply = docsPageReply();
    expect(reply.contentType).toBe('text/html; charset=utf-8');
    expect(reply.text).toBe(DOCS_PAGE_HTML);
    expect(reply.headers).toMatchObject({
      'Content-Security-Policy': DOCS_PAGE_CSP,
      'Cache-Control': expect.stringMatching(/max-age=\d+/),
      'X-Content-Type-Options': 'nosniff',
    });
  });
});

describe('docs assets', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-docs-'));
    await writeFile(join(dir, 'swagger-ui.css'), 'body{}');
    await writeFile(join(dir, 'swagger-ui-bundle.js'), 'var x = "ü";');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds the installed package, or DOCS_ASSETS_DIR when set', () => {
    expect(docsAssetsDir({})).toBe(packageDir);
    expect(docsAssetsDir({ DOCS_ASSETS_DIR: '/var/task' })).toBe('/var/task');
  });

  it.each([...DOCS_ASSET_TYPES])('serves %s from the package unchanged as %s', async (name, type) => {
    const asset = await loadDocsAsset(name, packageDir);
    const raw = await readFile(join(packageDir, name));
    expect(asset?.contentType).toBe(type);
    expect(Buffer.from(asset?.body ?? '', 'utf8').equals(raw)).toBe(true);
    expect(asset?.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('reads from the directory it is given', async () => {
    expect((await loadDocsAsset('swagger-ui-bundle.js', dir))?.body).toBe('var x = "ü";');
    expect((await loadDocsAsset('swagger-ui.css', dir))?.contentType).toBe('text/css; charset=utf-8');
  });

  it.each([
    'index.html',
    'swagger-ui.js',
    'package.json',
    '../package.json',
    'swagger-ui.css.map',
    '__proto__',
    'constructor',
    '',
  ])('has nothing named %j', async (name) => {
    expect(await loadDocsAsset(name, packageDir)).toBeUndefined();
    const reply = await docsAssetReply(name);
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ detail: expect.any(String) });
  });

  it('answers with content type, cache headers and an ETag; 304 when the client has it', async () => {
    const reply = await docsAssetReply('swagger-ui-bundle.js');
    expect(reply.status).toBeUndefined();
    expect(reply.contentType).toBe('text/javascript; charset=utf-8');
    expect(reply.text?.length).toBeGreaterThan(1_000_000);
    const etag = reply.headers?.ETag ?? '';
    expect(reply.headers).toMatchObject({
      'Cache-Control': expect.stringMatching(/^public, max-age=\d+$/),
      ETag: etag,
    });
    const again = await docsAssetReply('swagger-ui-bundle.js', `"other", W/${etag}`);
    expect(again).toMatchObject({ status: 304, text: '', headers: { ETag: etag } });
  });

  it('compares ETags as If-None-Match does', () => {
    expect(etagMatches(undefined, '"a"')).toBe(false);
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
  });
});
