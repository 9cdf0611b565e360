/**
 * The layer rules of docs/architecture.md (16), checked by dependency-cruiser on every import
 * (static, type-only, re-exports, dynamic) of bin, lib, functions and shared: `npm run lint:deps`,
 * run by `npm test`. test/unit/layers.test.ts checks the same layers with its own parser.
 *
 * Layers, lowest first; a module imports from its own layer and those below, never above.
 */
const LAYERS = [
  [
    'base',
    '^shared/(vocabulary|geo)/|^shared/(errors|config|log|log-sink|metrics|ids|xml|runtime-ports|tenant-scope|json-depth|url-secrets|kms-json|aws-signed)\\.ts$',
  ],
  ['schemas', '^shared/schemas/'],
  ['db', '^shared/db/'],
  ['adapters', '^shared/adapters/'],
  ['feeds', '^shared/feeds/'],
  ['domain', '^shared/domain/'],
  ['edge', '^shared/(auth|http|routes|openapi)/|^shared/(iam|workers|worker-handler)\\.ts$'],
  ['mcp', '^shared/mcp/'],
  ['functions', '^functions/'],
  ['local', '^shared/local/'],
];

/**
 * A room is a context's folder: shared/domain/<context>/, and the db and schemas folders of a
 * context (shared/db/watchlist/, ...). Its face is its index.ts. From outside a room, only the
 * face is imported; the route glue (functions) may reach a module inside (it picks the one its
 * route needs, which keeps its bundle small). Inside a room, modules import each other directly.
 */
const ROOM = '^shared/(domain|db|schemas)/([^/]+)/';

const upward = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}-imports-no-higher-layer`,
  comment: `${name} imports only from its own layer and those below (${LAYERS.slice(0, i + 1)
    .map(([n]) => n)
    .join(', ')})`,
  severity: 'error',
  from: { path },
  to: {
    path: LAYERS.slice(i + 1)
      .map(([, p]) => `(${p})`)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'feeds-import-no-domain',
      comment: 'the feed parsers sit below the domain: they import nothing of it',
      severity: 'error',
      from: { path: '^shared/feeds/' },
      to: { path: '^shared/domain/' },
    },
    {
      name: 'no-circular',
      comment: 'no import circle in the sources (a face that re-exports a module importing it back is one)',
      severity: 'error',
      from: { path: '^(shared|functions|lib|bin)/' },
      to: { circular: true },
    },
    {
      name: 'rooms-only-through-their-face',
      comment: 'a context imports another context only through its index.ts',
      severity: 'error',
      from: { path: ROOM },
      to: {
        path: '^shared/(domain|db|schemas)/[^/]+/',
        pathNot: ['^shared/$1/$2/', '^shared/(domain|db|schemas)/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'outside-rooms-only-through-their-face',
      comment: 'outside the contexts (shared, lib, bin; not functions), a context is imported through its index.ts',
      severity: 'error',
      from: { path: '^(shared|lib|bin)/', pathNot: ROOM },
      to: { path: ROOM, pathNot: '/index\\.ts$' },
    },
    {
      name: 'production-imports-no-local-runtime-cdk-or-scripts',
      comment:
        'code that runs in a deployed function (functions, shared but shared/local) imports neither the local runtime, nor the CDK app (lib), nor the scripts (bin)',
      severity: 'error',
      from: { path: '^(functions|shared)/', pathNot: '^shared/local/' },
      to: { path: '^(shared/local|lib|bin)/' },
    },
    {
      name: 'domain-knows-no-http',
      comment: 'no domain module imports shared/http (nor decides a tenant: shared/auth/tenant.ts)',
      severity: 'error',
      from: { path: '^shared/domain/' },
      to: { path: '^shared/http/|^shared/auth/tenant\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.data|\\.build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
