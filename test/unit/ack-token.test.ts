import { describe, expect, it } from 'vitest';
import { hashToken, issueAckToken, linkState, tokenOpens } from '../../shared/domain/incidents/ack-token.js';

describe('acknowledgement tokens', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  const issued = issueAckToken(now, 60);
  const stored = { hash: issued.hash, incidentId: 'inc-1', expiresAt: issued.expiresAt };

  it('are random, long, and stored only as a hash', () => {
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.hash).toBe(hashToken(issued.token));
    expect(issued.hash).not.toContain(issued.token);
    expect(issueAckToken(now, 60).token).not.toBe(issued.token);
  });

  it('open their own incident until they expire', () => {
    expect(tokenOpens(stored, issued.token, 'inc-1', now + 59 * 60_000)).toBe(true);
    expect(tokenOpens(stored, issued.token, 'inc-1', now + 60 * 60_000)).toBe(false);
  });

  it('open no other incident, and no other token opens this one', () => {
    expect(tokenOpens(stored, issued.token, 'inc-2', now)).toBe(false);
    expect(tokenOpens(stored, issueAckToken(now, 60).token, 'inc-1', now)).toBe(false);
    expect(tokenOpens(null, issued.token, 'inc-1', now)).toBe(false);
  });

  it('say used once used, expired once expired, and nothing more to a token that does not match', () => {
    const used = { ...stored, usedAt: '2026-11-21T12:05:00.000Z' };
    expect(linkState(used, issued.token, 'inc-1', now)).toBe('used');
    expect(tokenOpens(used, issued.token, 'inc-1', now)).toBe(false);
    expect(linkState(stored, issued.token, 'inc-1', now + 61 * 60_000)).toBe('expired');
    expect(linkState(used, issueAckToken(now, 60).token, 'inc-1', now)).toBe('invalid');
    expect(linkState(stored, issued.token, 'inc-1', now)).toBe('valid');
  });
});
