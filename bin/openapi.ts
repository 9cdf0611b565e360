/**
 * Prints the OpenAPI document of the route table as JSON, for `npm run lint:openapi` and for
 * clients that want the file without running the service.
 *
 *   tsx bin/openapi.ts [--server-url <url>] > openapi.json
 *
 * Reads no service configuration (shared/config.ts needs the deployment's settings); the version
 * is GATEHOUSE_VERSION when set, as in the service, else the package version.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument } from '../shared/openapi/document.js';
import { ROUTES } from '../shared/routes/index.js';

const { values } = parseArgs({ options: { 'server-url': { type: 'string' } } });
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const document = buildOpenApiDocument(ROUTES, {
  version: process.env.GATEHOUSE_VERSION || pkg.version,
  serverUrl: values['server-url'],
});
process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
