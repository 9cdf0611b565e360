/**
 * The layer rules of docs/architecture.md, checked on the sources' imports (static, re-exports and
 * dynamic): what a deployed function may reach, and what it must not.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  from: string;
  /** A repository path (`shared/local/compose.ts`) or a package specifier (`ajv`). */
  to: string;
  typeOnly: boolean;
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const specifier = m[3] ?? m[4]!;
    const to = specifier.startsWith('.')
      ? relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts')
      : specifier;
    return { from: file, to, typeOnly: Boolean(m[2]) };
  });
}

const all = [...sources('functions'), ...sources('shared'), ...sources('lib'), ...sources('bin')];
const imports = all.flatMap(importsOf);
/** Code that runs in a deployed function: the handlers and everything shared but the local runtime. */
const isProduction = (file: string) =>
  file.startsWith('functions/') || (file.startsWith('shared/') && !file.startsWith('shared/local/'));
const under = (prefix: string) => (i: Import) => i.to.startsWith(prefix);
const show = (list: Import[]) => list.map((i) => `${i.from} -> ${i.to}`);

/**
 * The layers, lowest first. A module may import from its own layer and the ones below it, never
 * from one above (docs/architecture.md, 16). Every source file under shared/ is in one
 * (.dependency-cruiser.cjs checks the same layers with dependency-cruiser: `npm run lint:deps`).
 */
const LAYERS: [name: string, test: RegExp][] = [
  [
    'base',
    /^shared\/(vocabulary\/|geo\/|(errors|config|log|log-sink|metrics|tracing|ids|xml|runtime-ports|tenant-scope|json-depth|url-secrets|kms-json|aws-signed)\.ts$)/,
  ],
  ['schemas', /^shared\/schemas\//],
  ['db', /^shared\/db\//],
  ['adapters', /^shared\/adapters\//],
  // The feed parsers: pure readers of public documents, below the domain that polls them.
  ['feeds', /^shared\/feeds\//],
  ['domain', /^shared\/domain\//],
  ['edge', /^shared\/(auth|http|routes|openapi)\/|^shared\/(iam|workers|worker-handler)\.ts$/],
  // The MCP server: a client of the HTTP API (its routes' contracts), at the edge.
  ['mcp', /^shared\/mcp\//],
  ['functions', /^functions\//],
  // The local runtime composes all of it; nothing deployed imports it (below).
  ['local', /^shared\/local\//],
];
const layerOf = (path: string) => LAYERS.findIndex(([, test]) => test.test(path));

describe('layers', () => {
  it('every source file under shared/ belongs to a layer', () => {
    expect(all.filter((f) => f.startsWith('shared/') && layerOf(f) < 0)).toEqual([]);
  });

  it.each(LAYERS.slice(0, -1).map(([name]) => [name]))('%s imports nothing from a layer above it', (name) => {
    const level = LAYERS.findIndex(([n]) => n === name);
    const upward = imports.filter((i) => layerOf(i.from) === level && layerOf(i.to) > level);
    expect(show(upward)).toEqual([]);
  });

  it('every DynamoDB call lives in shared/db: no other production module imports a DynamoDB command', () => {
    const dynamo = (i: Import) => !i.typeOnly && /^@aws-sdk\/(lib-dynamodb|client-dynamodb)$/.test(i.to);
    expect(show(imports.filter((i) => isProduction(i.from) && !i.from.startsWith('shared/db/') && dynamo(i)))).toEqual(
      [],
    );
  });

  it("a request's tenant is decided at the edge: only system work names a tenant from its data", () => {
    // A TenantId is made by shared/auth/tenant.ts from the credential, or by systemTenant() for
    // work that has no caller or makes the tenant: a tenant's SLA timers, a finished
    // transcription, an event's own tenant, a public report's key, an acknowledgement token, the
    // tenant list of a stream watching all, the platform's tenant at bootstrap, a registration's
    // new tenant. Anywhere else is a request path.
    const SYSTEM_WORK = [
      'shared/domain/incidents/sla-scheduler.ts',
      'shared/domain/incidents/transcription.ts',
      'shared/domain/incidents/from-events.ts',
      'shared/domain/incidents/public-reports.ts',
      'shared/domain/incidents/notification-delivery.ts',
      // A bus message's own tenant (set where the change was stored), and a delivery job's (written by the dispatcher).
      'shared/domain/webhooks/dispatch.ts',
      'shared/domain/webhooks/delivery-attempt.ts',
      // Every tenant's audit hours, digested by the platform.
      'shared/domain/audit/digest.ts',
      // The acknowledgement link's token names its tenant.
      'shared/domain/incidents/acknowledgement.ts',
      'shared/domain/events/stream-feed.ts',
      'shared/domain/accounts/bootstrap.ts',
      // A free developer key's tenant: made by the request.
      'shared/domain/accounts/developer-accounts.ts',
      // A registration's tenant: made by the registration, kept in its record until its link is used.
      'shared/domain/accounts/registration.ts',
      // A bus message's own tenant, and a run's (written when the run was made), for the workflow runner.
      'shared/domain/workflows/runner.ts',
      // Stored AIS events' own tenant for the vessel tracker, and an episode message's for its announcer.
      'shared/domain/analytics/stored-changes.ts',
      'shared/domain/vessels/announce-message.ts',
      // A plan change's message names its tenant; the tenant's events get the TTL its plan says.
      'shared/domain/events/retention.ts',
      // A connector schedule's own input, written for the connector's tenant when it was made.
      'shared/domain/connectors/scheduled-poll.ts',
      // A drone callback's address names its tenant; the signature with that tenant's drone integration's secret proves it.
      'shared/domain/drones/dispatch.ts',
      // A large map file's background extraction: its queue message names the tenant its extract call had.
      'shared/domain/infrastructure/background.ts',
    ];
    const callers = all.filter((f) => isProduction(f) && /\bsystemTenant\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(callers.filter((f) => f !== 'shared/vocabulary/tenant.ts' && !SYSTEM_WORK.includes(f))).toEqual([]);
    expect(imports.filter((i) => i.from.startsWith('shared/domain/') && i.to === 'shared/auth/tenant.ts')).toEqual([]);
  });

  it('the feeds import nothing of the domain', () => {
    expect(show(imports.filter((i) => i.from.startsWith('shared/feeds/') && under('shared/domain/')(i)))).toEqual([]);
  });

  it('a context imports another only through its face (index.ts); only the route glue (functions) reaches inside', () => {
    // A room is a context's folder: shared/domain/<context>/, and shared/db/<context>/ and
    // shared/schemas/<context>/ where a context has several files there.
    const roomOf = (path: string) => /^shared\/(domain|db|schemas)\/[^/]+\//.exec(path)?.[0];
    const rooms = new Set(all.map(roomOf).filter(Boolean));
    expect([...rooms].filter((room) => !all.includes(`${room}index.ts`))).toEqual([]);
    const intruding = imports.filter((i) => {
      const room = roomOf(i.to);
      return (
        room !== undefined && room !== roomOf(i.from) && !i.to.endsWith('/index.ts') && !i.from.startsWith('functions/')
      );
    });
    expect(show(intruding)).toEqual([]);
    // No loose files in the domain beyond its shared kernel.
    const kernel = ['actor.ts', 'country-code.ts', 'diff.ts', 'local-time.ts', 'outbound-policy.ts'].map(
      (f) => `shared/domain/${f}`,
    );
    expect(all.filter((f) => /^shared\/domain\/[^/]+\.ts$/.test(f) && !kernel.includes(f))).toEqual([]);
  });

  it('the domain knows no HTTP: no domain module imports shared/http', () => {
    expect(show(imports.filter((i) => i.from.startsWith('shared/domain/') && under('shared/http/')(i)))).toEqual([]);
  });

  it('finds the imports it checks', () => {
    // A parser that found nothing would pass every rule below.
    expect(imports.filter((i) => i.from === 'functions/environments/get.ts').map((i) => i.to)).toContain(
      'shared/http/handler.ts',
    );
    expect(imports.some((i) => i.from === 'shared/local/compose.ts' && i.to === 'shared/config.ts')).toBe(true);
    expect(
      imports.filter((i) => i.from === 'shared/domain/incidents/notification-delivery.ts').map((i) => i.to),
    ).toContain('shared/domain/integrations/index.ts');
  });

  it('no production module imports the local runtime (shared/local)', () => {
    expect(show(imports.filter((i) => isProduction(i.from) && under('shared/local/')(i)))).toEqual([]);
  });

  it('no production module imports the CDK app (lib) or the scripts (bin)', () => {
    expect(show(imports.filter((i) => isProduction(i.from) && (under('lib/')(i) || under('bin/')(i))))).toEqual([]);
  });

  it('no production module compiles schemas: Ajv and its compiler stay in the build and the local runtime', () => {
    const compiles = (i: Import) =>
      !i.typeOnly &&
      (i.to === 'shared/http/ajv.ts' || /^ajv(-formats)?(\/|$)/.test(i.to) || i.to === '@middy/validator/transpile');
    expect(show(imports.filter((i) => isProduction(i.from) && i.from !== 'shared/http/ajv.ts' && compiles(i)))).toEqual(
      [],
    );
  });

  it('the local runtime is one folder: shared/local is imported only by itself, bin and the tests', () => {
    const outside = imports.filter(
      (i) => under('shared/local/')(i) && !i.from.startsWith('shared/local/') && !i.from.startsWith('bin/'),
    );
    expect(show(outside)).toEqual([]);
  });
});
