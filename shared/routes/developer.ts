/**
 * The `/v1` developer API (docs/developer-api.md): keys with tiers, usage, and the vessel profile
 * and cable risk of `/api/v1` under the developer's own key. Authenticated by an API key (or a
 * bearer token), gated by tier, counted per key a minute and a month (shared/domain/developer/access.ts).
 */
import { cableRiskResponse, vesselProfile } from '../schemas/vessels.js';
import { threatScoreResponse, v1ThreatScoreQuery } from '../schemas/threat-score.js';
import { THREAT_SCORE_DESCRIPTION } from './threat-score.js';
import {
  keyIssueRequest,
  keyIssueResponse,
  keyPath,
  usageResponse,
  v1CableRiskQuery,
  v1VesselProfileQuery,
} from '../schemas/developer.js';
import type { RouteDef } from './types.js';

const LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

export const developerKeysIssueRoute = {
  id: 'developer.keys.issue',
  method: 'POST',
  path: '/v1/auth/keys',
  handler: 'functions/developer/issue-key.ts',
  access: 'public',
  optionalCredential: true,
  tenant: 'none',
  tag: 'developer',
  summary: 'Get an API key: free is self-serve, pro and enterprise need a TENANT_ADMIN',
  description:
    'A `free` key without a credential makes a new developer tenant (free plan) with the key, and mails the email; at most 5 a minute per client address (429). ' +
    'It is answered alike whether the email has an account or not: the tenant is always a new one of its own with no login identity, ' +
    'not linked to any account of the address (no one logs in to it, nothing of an account is reached from it, the address stays free to register), and every address gets the same mail. ' +
    'With a TENANT_ADMIN bearer token the key is made in that tenant, of any tier its plan allows (403 otherwise); an API key cannot mint keys. The key is shown once.',
  request: { body: keyIssueRequest },
  response: { status: 201, description: 'The key, shown once.', schema: keyIssueResponse, headers: LIMIT_HEADERS },
  errors: [401, 403, 429],
  rateLimit: { name: 'v1-keys', perMinute: 5 },
  grants: { audit: 'seal', table: 'write', email: true },
} as const satisfies RouteDef;

export const developerKeysRevokeRoute = {
  id: 'developer.keys.revoke',
  method: 'DELETE',
  path: '/v1/auth/keys/{key_id}',
  handler: 'functions/developer/revoke-key.ts',
  access: 'VIEWER',
  developer: { endpoint: 'keys' },
  tenant: 'credential',
  tag: 'developer',
  summary: 'Revoke a key: the key calling (any tier), or any key of the tenant (TENANT_ADMIN)',
  description: 'The key stops working at once: its next call is 401.',
  request: { path: keyPath },
  response: { status: 204, description: 'Revoked.', headers: LIMIT_HEADERS },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const developerUsageRoute = {
  id: 'developer.usage',
  method: 'GET',
  path: '/v1/usage',
  handler: 'functions/developer/usage.ts',
  access: 'VIEWER',
  developer: { endpoint: 'usage' },
  tenant: 'credential',
  tag: 'developer',
  summary: "The caller's tier, its minute and its month so far (this call included)",
  response: { status: 200, description: 'The usage.', schema: usageResponse, headers: LIMIT_HEADERS },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const developerVesselProfileRoute = {
  id: 'developer.vesselProfile',
  method: 'GET',
  path: '/v1/vessel-profile',
  handler: 'functions/developer/vessel-profile.ts',
  access: 'VIEWER',
  developer: { endpoint: 'vessel-profile' },
  tenant: 'credential',
  tag: 'developer',
  summary: "A vessel's behavioural profile, from the AIS data of the key's tenant",
  description:
    'The same answer as `GET /api/v1/vessels/{mmsi}` (docs/vessels.md). 404 when the tenant has no AIS data for the MMSI.',
  request: { query: v1VesselProfileQuery },
  response: { status: 200, description: 'The profile.', schema: vesselProfile, headers: LIMIT_HEADERS },
  errors: [404],
  grants: { table: 'read', bucket: 'read' },
  timeoutSeconds: 20,
} as const satisfies RouteDef;

export const developerCableRiskRoute = {
  id: 'developer.cableRisk',
  method: 'GET',
  path: '/v1/cable-risk',
  handler: 'functions/developer/cable-risk.ts',
  access: 'VIEWER',
  developer: { endpoint: 'cable-risk' },
  tenant: 'credential',
  tag: 'developer',
  summary: "Cable risk at a point, from the lines and activity of the key's tenant",
  description: 'The same answer as `GET /api/v1/cable-risk` (docs/vessels.md).',
  request: { query: v1CableRiskQuery },
  response: { status: 200, description: 'The risk.', schema: cableRiskResponse, headers: LIMIT_HEADERS },
  grants: { table: 'read', bucket: 'read' },
  timeoutSeconds: 20,
} as const satisfies RouteDef;

export const developerThreatScoreRoute = {
  id: 'developer.threatScore',
  method: 'GET',
  path: '/v1/threat-score',
  handler: 'functions/developer/threat-score.ts',
  access: 'VIEWER',
  developer: { endpoint: 'threat-score' },
  tenant: 'credential',
  tag: 'developer',
  summary: "Seven-factor threat score of a target, from the data of the key's tenant",
  description: `The same answer as \`GET /api/v1/threat-score\`. ${THREAT_SCORE_DESCRIPTION}`,
  request: { query: v1ThreatScoreQuery },
  response: {
    status: 200,
    description: 'The score and its factors.',
    schema: threatScoreResponse,
    headers: LIMIT_HEADERS,
  },
  plan: { retention: 'events' },
  grants: { table: 'write', bucket: 'read' },
  timeoutSeconds: 20,
  memoryMb: 1024,
} as const satisfies RouteDef;

export const developerRoutes: readonly RouteDef[] = [
  developerKeysIssueRoute,
  developerKeysRevokeRoute,
  developerUsageRoute,
  developerThreatScoreRoute,
  developerVesselProfileRoute,
  developerCableRiskRoute,
];
