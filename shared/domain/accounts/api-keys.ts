/**
 * API keys: `X-API-Key` works wherever a bearer token does. A key acts for one tenant with the role
 * it was given (never above its creator's, then or now), may expire and may be bound to client
 * addresses. The key is shown once; the table keeps its SHA-256 only. A key names its own id and
 * tenant, so checking it is one consistent read, and revoking (deleting that item) works at once.
 *
 * Format: `ghk_` + key id (32 hex) + tenant id (32 hex) + creator's user id (32 hex) + 43
 * characters of secret (256 bits). The key thus names every item that checking it reads (key,
 * tenant, creator), so they are read in one trip. Keys minted before the creator was part of the
 * format (no creator part) still work, with a second read for the creator.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { roleSatisfies } from '../../vocabulary/roles.js';
import {
  deleteApiKeyItem,
  listApiKeys as listStoredApiKeys,
  publicApiKey,
  putNewApiKey,
  type ApiKey,
  type StoredApiKey,
} from '../../db/api-keys.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import type { PageRequest } from '../../db/query.js';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transact.js';
import { ForbiddenError, invalid, NotFoundError } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import { ROLES, type Role } from '../../vocabulary/roles.js';
import type { CallerActor } from '../../vocabulary/actor.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { apiKeyCreate } from '../../schemas/portal.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { DeveloperTier } from '../../vocabulary/developer.js';

export const API_KEY_NOT_FOUND = 'API key not found';
const KEY_PATTERN = /^ghk_([0-9a-f]{32})([0-9a-f]{32})((?:[0-9a-f]{32})?)([A-Za-z0-9_-]{43})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ApiKeyCreate = InputOf<typeof apiKeyCreate>;

const hex = (uuid: string) => uuid.replace(/-/g, '');
const uuidOf = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** Parses an allowlist entry (address or CIDR) into a BlockList; false when it is neither. */
function addToList(list: BlockList, entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (!address || rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) {
    list.addAddress(address, type);
    return true;
  }
  const prefix = Number(bits);
  if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) return false;
  list.addSubnet(address, prefix, type);
  return true;
}

function allows(allowlist: string[], sourceIp: string): boolean {
  if (allowlist.length === 0) return true;
  const family = isIP(sourceIp);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowlist) addToList(list, entry);
  return list.check(sourceIp, family === 4 ? 'ipv4' : 'ipv6');
}

export async function createApiKey(
  actor: CallerActor,
  tenantId: TenantId,
  input: ApiKeyCreate,
  developer?: { tier: DeveloperTier; rateLimit: number | null },
): Promise<ApiKey & { api_key: string }> {
  const { writes, key } = newApiKey(actor, tenantId, input, developer);
  await transactWrite(writes);
  return key;
}

/**
 * A new key and the writes that store it (the key's item and its audit entry), for a transaction
 * of the caller's: checked as `createApiKey` checks it.
 */
export function newApiKey(
  actor: CallerActor,
  tenantId: TenantId,
  input: ApiKeyCreate,
  developer?: { tier: DeveloperTier; rateLimit: number | null },
): { writes: TransactItem[]; key: ApiKey & { api_key: string } } {
  const principal = actor.principal;
  const role = input.role ?? 'VIEWER';
  if (!roleSatisfies(principal.role, role)) {
    throw new ForbiddenError(`A key cannot have the ${role} role: it is above your own`);
  }
  if (input.expires_at !== undefined && Date.parse(input.expires_at) <= Date.now()) {
    throw invalid(['body', 'expires_at'], 'must be in the future', 'value_error');
  }
  const allowlist = input.ip_allowlist ?? [];
  allowlist.forEach((entry, i) => {
    if (!addToList(new BlockList(), entry)) {
      throw invalid(['body', 'ip_allowlist', i], 'must be an IPv4 or IPv6 address or CIDR range', 'value_error');
    }
  });
  const keyId = newTimeId();
  // A creator whose id is no UUID (none is, with Cognito's subs) makes a key without the part.
  const creator = UUID.test(principal.userId) ? hex(principal.userId).toLowerCase() : '';
  const apiKey = `ghk_${hex(keyId)}${hex(tenantId)}${creator}${randomBytes(32).toString('base64url')}`;
  const stored: StoredApiKey = {
    key_id: keyId,
    tenant_id: tenantId,
    name: input.name.trim(),
    role,
    prefix: apiKey.slice(0, 12),
    expires_at: input.expires_at ?? null,
    ip_allowlist: allowlist,
    created_by: principal.userId,
    created_at: now(),
    key_hash: hashOf(apiKey),
    ...(developer ? { tier: developer.tier, rate_limit: developer.rateLimit } : {}),
  };
  const audit = auditEntry(actor, {
    tenantId,
    action: 'api_key.created',
    resourceType: 'api_key',
    resourceId: keyId,
    changes: {
      name: stored.name,
      role,
      expires_at: stored.expires_at,
      ip_allowlist: allowlist,
      ...(developer ? { tier: developer.tier, rate_limit: developer.rateLimit } : {}),
    },
  });
  return { writes: [putNewApiKey(stored), auditPut(audit)], key: { ...publicApiKey(stored), api_key: apiKey } };
}

export async function listApiKeys(actor: CallerActor, tenantId: TenantId, page: PageRequest): Promise<ApiKey[]> {
  return (await listStoredApiKeys(tenantId, page)).map(publicApiKey);
}

export async function revokeApiKey(actor: CallerActor, keyId: string, tenantId: TenantId): Promise<void> {
  const audit = auditEntry(actor, { tenantId, action: 'api_key.revoked', resourceType: 'api_key', resourceId: keyId });
  try {
    await transactWrite([deleteApiKeyItem(tenantId, keyId), auditPut(audit)]);
  } catch (err) {
    if (err instanceof ConditionFailed) throw new NotFoundError(API_KEY_NOT_FOUND);
    throw err;
  }
}

/**
 * The tenant, key id and creator an `X-API-Key` value names (the creator: not in keys minted
 * before it was part of the format), or null when it is no key of ours. Unchecked until the
 * key's hash matches.
 */
export function apiKeyIds(apiKey: string): { tenantId: string; keyId: string; creatorId: string | null } | null {
  const match = KEY_PATTERN.exec(apiKey);
  return match
    ? { tenantId: uuidOf(match[2]!), keyId: uuidOf(match[1]!), creatorId: match[3] ? uuidOf(match[3]) : null }
    : null;
}

/** Whether `stored` is the key `apiKey` and usable from `sourceIp` now. */
export function checkApiKey(stored: StoredApiKey | null, apiKey: string, sourceIp: string): stored is StoredApiKey {
  if (!stored) return false;
  const expected = Buffer.from(stored.key_hash, 'hex');
  const actual = Buffer.from(hashOf(apiKey), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return false;
  if (stored.expires_at && Date.parse(stored.expires_at) <= Date.now()) return false;
  return allows(stored.ip_allowlist, sourceIp);
}

/** The lower of two roles: a key never acts above its creator's current role. */
export function lowerRole(a: Role, b: Role): Role {
  return ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b;
}
