/** Threat libraries: CRUD, the seed of four libraries, and the compact listing for threat intelligence. */
import { threatIntelLibraryQuery, threatLibrarySummary } from '../schemas/threat-intel.js';
import {
  MAX_DEFINITIONS_PER_LIBRARY,
  MAX_LIBRARIES_PER_TENANT,
  MAX_LIBRARY_BYTES,
  threatLibraryCreate,
  threatLibraryListQuery,
  threatLibraryPath,
  threatLibraryResponse,
  threatLibraryScopeQuery,
  threatLibrarySeedResult,
  threatLibraryUpdate,
} from '../schemas/threat-libraries.js';
import type { RouteDef } from './types.js';

const MATCHED =
  "An active definition of an active library is matched against the events ingested: a match names it in the event's `matched_signatures` and adds its weight to the event's threat score. Every change moves the tenant's threat-library revision, which ingest checks before it uses definitions it kept.";
const DEFINITIONS = `At most ${MAX_DEFINITIONS_PER_LIBRARY} definitions, their \`definition_id\`s unique in the library (422 naming the second); one without an id gets one made from its name. Conditions that can never hold (\`hours\` with start equal to end, a keyword without a letter or digit, payload thresholds on one field that no number passes together) are 422 at the condition. A library over ${MAX_LIBRARY_BYTES / 1024} KB of JSON is 413.`;

export const threatLibrariesCreateRoute = {
  id: 'threatLibraries.create',
  method: 'POST',
  path: '/api/v1/threat-libraries',
  handler: 'functions/threat-libraries/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  plan: { feature: 'threat_libraries' },
  tag: 'threat-libraries',
  summary: 'Create a threat library of definitions for one vertical',
  description: `${DEFINITIONS} At most ${MAX_LIBRARIES_PER_TENANT} libraries per tenant (409 beyond). ${MATCHED}`,
  request: { body: threatLibraryCreate },
  response: {
    status: 201,
    description: 'The library, with its definitions as stored (ids made, defaults filled).',
    schema: threatLibraryResponse,
  },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const threatLibrariesListRoute = {
  id: 'threatLibraries.list',
  method: 'GET',
  path: '/api/v1/threat-libraries',
  handler: 'functions/threat-libraries/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'threat-libraries',
  summary: "A tenant's threat libraries with their definitions, oldest first",
  description:
    '`vertical` keeps the libraries of that vertical, `active_only` the active ones (their definitions are listed whether active or not).',
  request: { query: threatLibraryListQuery },
  response: {
    status: 200,
    description: 'A page of libraries.',
    schema: { type: 'array', items: threatLibraryResponse },
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const threatLibrariesGetRoute = {
  id: 'threatLibraries.get',
  method: 'GET',
  path: '/api/v1/threat-libraries/{library_id}',
  handler: 'functions/threat-libraries/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'threat-libraries',
  summary: 'A threat library with its definitions',
  request: { path: threatLibraryPath, query: threatLibraryScopeQuery },
  response: { status: 200, description: 'The library.', schema: threatLibraryResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const threatLibrariesUpdateRoute = {
  id: 'threatLibraries.update',
  method: 'PATCH',
  path: '/api/v1/threat-libraries/{library_id}',
  handler: 'functions/threat-libraries/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  plan: { feature: 'threat_libraries' },
  tag: 'threat-libraries',
  summary:
    'Rename, describe, move to another vertical, switch on or off, or replace the definitions of a threat library',
  description: `\`definitions\` replaces the whole list: send the ones to keep too (with their ids, or they get new ones). ${DEFINITIONS} The audit entry names the definitions added, removed and changed. ${MATCHED}`,
  request: { path: threatLibraryPath, query: threatLibraryScopeQuery, body: threatLibraryUpdate },
  response: { status: 200, description: 'The library as it is now.', schema: threatLibraryResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const threatLibrariesDeleteRoute = {
  id: 'threatLibraries.delete',
  method: 'DELETE',
  path: '/api/v1/threat-libraries/{library_id}',
  handler: 'functions/threat-libraries/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'threat-libraries',
  summary: 'Delete a threat library and its definitions',
  description:
    'Its definitions stop matching from the next event on. A seeded library deleted is created again, whole, by the next seed.',
  request: { path: threatLibraryPath, query: threatLibraryScopeQuery },
  response: { status: 204, description: 'Deleted.' },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const threatLibrariesSeedRoute = {
  id: 'threatLibraries.seed',
  method: 'POST',
  path: '/api/v1/threat-libraries/seed',
  handler: 'functions/threat-libraries/seed.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  plan: { feature: 'threat_libraries' },
  tag: 'threat-libraries',
  summary:
    'Seed the four predefined threat libraries (maritime, security, infrastructure, defense) with their 12 definitions, and three playbooks',
  description:
    'Idempotent: a seeded library is found by its `seed_key` (whatever it was renamed to) and a definition by its `definition_id`; what exists is skipped and left as the tenant changed it, and the answer lists it. A seeded definition the tenant deleted is created again in its library, and a seeded library deleted is created again whole: to do without one, switch it off (`active: false`) rather than delete it. One transaction, with an audit entry for each library created or changed: 409, and nothing created, when the libraries would pass the tenant\'s 20 or a seeded library\'s definitions its 50. The definitions are described in docs/threat-libraries.md. It also seeds three workflows (docs/workflows.md), found again by their `seed_key` likewise: the playbooks "Perimeter breach response" and "Vessel loitering near a subsea cable", and "Escalate critical incidents nobody acknowledged in 5 minutes", created switched off.',
  request: { query: threatLibraryScopeQuery },
  response: {
    status: 200,
    description: 'What the seed created and what it found already there.',
    schema: threatLibrarySeedResult,
  },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const threatIntelLibrariesRoute = {
  id: 'threatIntel.libraries',
  method: 'GET',
  path: '/api/v1/threat-intel/libraries',
  handler: 'functions/threat-libraries/intel-list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'threats',
  summary: 'List threat libraries: a compact summary of each, for threat-intelligence consumers',
  description:
    'The same libraries as `GET /api/v1/threat-libraries`, oldest first, with the same `vertical` and `active_only` filters, but summed up instead of in full: no match conditions and no indicator lists, counts of the definitions (all, active, active by severity) and the event types the active ones watch. `tenant_id` is optional: your own tenant unless a SUPER_ADMIN names another.',
  request: { query: threatIntelLibraryQuery },
  response: {
    status: 200,
    description: 'A page of library summaries.',
    schema: { type: 'array', items: threatLibrarySummary },
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const threatLibrariesRoutes: readonly RouteDef[] = [
  threatLibrariesCreateRoute,
  threatLibrariesListRoute,
  threatLibrariesSeedRoute,
  threatLibrariesGetRoute,
  threatLibrariesUpdateRoute,
  threatLibrariesDeleteRoute,
  threatIntelLibrariesRoute,
];
