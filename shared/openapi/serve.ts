/** The served document: built from the route table for the caller's base URL, kept per container. */
import { ROUTES } from '../routes/index.js';
import { openapiRoute } from '../routes/platform.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';
import { serverUrlOf, type OriginEvent } from './server-url.js';

// One deployment answers on one or two base URLs (execute-api and a custom domain); a few entries
// suffice, and the bound keeps odd Host headers from growing the cache.
const MAX_CACHED = 4;
const cache = new Map<string, OpenApiDocument>();

export function openApiDocumentFor(event: OriginEvent, version: string): OpenApiDocument {
  const serverUrl = serverUrlOf(event, openapiRoute.path);
  const key = `${version}\u0000${serverUrl}`;
  let document = cache.get(key);
  if (!document) {
    document = buildOpenApiDocument(ROUTES, { version, serverUrl });
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, document);
  }
  return document;
}
