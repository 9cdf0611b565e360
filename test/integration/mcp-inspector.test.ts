/**
 * The acceptance check of the agent tool server with the MCP Inspector's CLI (the pinned
 * devDependency, offline): against `npm start`, `inspector --cli ... --method tools/list` over
 * stdio (`node bin/gatehouse-mcp.mjs`, what `npx gatehouse-mcp` runs) and over HTTP (`/mcp`) lists
 * the catalogue's tools, each with input and output schemas and annotations.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../shared/mcp/tools.js';
import { call, confirmRegistration } from '../support/api.js';
import { npmStart, type NpmStart } from '../support/npm-start.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const INSPECTOR = join(ROOT, 'node_modules', '.bin', 'inspector');

let run: NpmStart | undefined;
afterAll(async () => {
  await run?.stop();
});

function inspect(args: string[]): { tools: Array<Record<string, any>> } {
  const out = spawnSync(INSPECTOR, ['--cli', ...args, '--method', 'tools/list'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(out.status, out.stderr.slice(-2000)).toBe(0);
  return JSON.parse(out.stdout) as { tools: Array<Record<string, any>> };
}

function expectCatalogue(listed: { tools: Array<Record<string, any>> }) {
  expect(listed.tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  for (const tool of listed.tools) {
    expect(tool.inputSchema?.type, tool.name).toBe('object');
    expect(tool.outputSchema?.type, tool.name).toBe('object');
    expect(Object.keys(tool.annotations ?? {}), tool.name).toEqual(
      expect.arrayContaining(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']),
    );
  }
}

describe('MCP Inspector CLI against npm start', () => {
  it('lists every tool with schemas and annotations over stdio and over HTTP', async () => {
    run = await npmStart();
    const server = run.url;
    const email = `inspector-${Date.now()}@example.com`;
    const password = 'Inspector-pass-1';
    expect(
      (
        await call('POST', '/api/v1/portal/register', {
          server,
          body: { email, password, organization_name: 'Inspector Co' },
        })
      ).status,
    ).toBe(201);
    await confirmRegistration(email, run);
    const token = (await call('POST', '/api/v1/portal/login', { server, body: { email, password } })).body.access_token;
    const key = (await call('POST', '/api/v1/portal/api-keys', { server, token, body: { name: 'inspector' } })).body
      .api_key as string;

    expectCatalogue(
      inspect([
        '-e',
        `GATEHOUSE_API_KEY=${key}`,
        '-e',
        `GATEHOUSE_BASE_URL=${server}`,
        'node',
        'bin/gatehouse-mcp.mjs',
      ]),
    );
    expectCatalogue(inspect([`${server}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${key}`]));
  }, 300_000);
});
