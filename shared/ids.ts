/** Ids and timestamps in the contract's formats. */
import { randomUUID } from 'node:crypto';
import { v7 } from 'uuid';

/** A random UUID (v4), for things whose order does not matter. */
export const newId = (): string => randomUUID();

/** A time-ordered UUID (v7), for things listed by time: events, incidents, audit entries. */
export const newTimeId = (): string => v7();

/** RFC 3339 UTC with milliseconds, e.g. 2026-11-21T13:45:00.123Z. */
export const now = (): string => new Date().toISOString();

/**
 * The lowest (or highest) UUIDv7 of a millisecond: time bounds as key bounds, since UUIDv7 ids
 * sort by their time.
 */
export function timeIdBound(ms: number, edge: 'low' | 'high'): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return edge === 'low' ? `${t.slice(0, 8)}-${t.slice(8)}-7000-8000-000000000000` : `${t.slice(0, 8)}-${t.slice(8)}-7fff-bfff-ffffffffffff`;
}

/** The millisecond a UUIDv7 was made in. */
export function timeOfId(id: string): number {
  return parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}
