/**
 * Acknowledgement links: a random token (256 bits), shown only in the notification, stored only as
 * its SHA-256, scoped to one incident, expiring, and used once (the acknowledging write deletes it
 * with a condition, so two clicks acknowledge once).
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

export interface StoredToken {
  hash: string;
  incidentId: string;
  expiresAt: string;
}

/** Whether `token` opens `incidentId` now: the right hash, the right incident, not expired. */
export function tokenOpens(stored: StoredToken | null, token: string, incidentId: string, now: number): boolean {
  if (!stored || stored.incidentId !== incidentId) return false;
  const expected = Buffer.from(stored.hash, 'hex');
  const actual = Buffer.from(hashToken(token), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return false;
  return Date.parse(stored.expiresAt) > now;
}
