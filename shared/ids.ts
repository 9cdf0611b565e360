/** Ids and timestamps in the contract's formats. */
import { randomUUID } from 'node:crypto';
import { v7 } from 'uuid';

/** A random UUID (v4), for things whose order does not matter. */
export const newId = (): string => randomUUID();

/** A time-ordered UUID (v7), for things listed by time: events, incidents, audit entries. */
export const newTimeId = (): string => v7();

/** RFC 3339 UTC with milliseconds, e.g. 2026-11-21T13:45:00.123Z. */
export const now = (): string => new Date().toISOString();
