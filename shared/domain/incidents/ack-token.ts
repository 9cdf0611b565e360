/**
 * Acknowledgement links: a random token (256 bits), shown only in the notification, stored only as
 * its SHA-256, scoped to one incident, expiring, and used once (the acknowledging write marks it
 * used with a condition, so two clicks acknowledge once; the used mark lets its page say so).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface IssuedToken {
  /** Goes in the link; never stored. */
  token: string;
  /** What is stored. */
  hash: string;
  expiresAt: string;
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function issueAckToken(now: number, ttlMinutes: number): IssuedToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token), expiresAt: new Date(now + ttlMinutes * 60_000).toISOString() };
}

/** The token a link carries: `ack_`, the tenant id's 32 hex digits (the link names its tenant), then the secret. */
export function linkToken(tenantId: string, secret: string): string {
  return `ack_${tenantId.replace(/-/g, '')}${secret}`;
}

/** The tenant id a link's token names; null for a token not of that form. */
export function tenantOfLinkToken(token: string): string | null {
  const match = /^ack_([0-9a-f]{32})[A-Za-z0-9_-]{43}$/.exec(token);
  if (!match) return null;
  const h = match[1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export interface StoredToken {
  hash: string;
  incidentId: string;
  expiresAt: string;
  /** When it was used; absent or null while unused. */
  usedAt?: string | null;
}

/**
 * What `token` is for `incidentId` now: `invalid` (no such token, another incident's, a wrong
 * hash), `used`, `expired`, or `valid`. Only a token that matches says more than `invalid`.
 */
export type LinkState = 'valid' | 'used' | 'expired' | 'invalid';

export function linkState(stored: StoredToken | null, token: string, incidentId: string, now: number): LinkState {
  if (!stored || stored.incidentId !== incidentId) return 'invalid';
  const expected = Buffer.from(stored.hash, 'hex');
  const actual = Buffer.from(hashToken(token), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'invalid';
  if (stored.usedAt) return 'used';
  return Date.parse(stored.expiresAt) > now ? 'valid' : 'expired';
}

/** Whether `token` opens `incidentId` now: the right hash, the right incident, unused, not expired. */
export function tokenOpens(stored: StoredToken | null, token: string, incidentId: string, now: number): boolean {
  return linkState(stored, token, incidentId, now) === 'valid';
}
