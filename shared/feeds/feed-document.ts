/**
 * What the public-feed parsers share: the result they return, the error they throw, and the
 * reading of the body as JSON. Pure and dependency-free (bundled into the pollers).
 *
 * A parser returns every entry it could read as a record and names every entry it could not in
 * `problems` (one bad entry never fails the poll). It throws a FeedFormatError only when the whole
 * body is not the feed's format: an HTML error page, a proxy's text, JSON of another shape.
 */

/** An entry that was skipped, and why. `entry` is its position in the document (0-based). */
export interface FeedProblem {
  entry: number;
  /** The entry's id when it could be read, so the problem can be traced in the source. */
  id: string | null;
  reason: string;
}

export interface FeedParse<R> {
  records: R[];
  problems: FeedProblem[];
}

/** The body is not the feed's format at all; nothing in it was read. */
export class FeedFormatError extends Error {
  constructor(feed: string, detail: string) {
    super(`${feed}: ${detail}`);
    this.name = 'FeedFormatError';
  }
}

/** The body as JSON, or a FeedFormatError that says what came instead. */
export function readJson(text: string, feed: string): unknown {
  const start = text.trimStart().slice(0, 64);
  if (start.startsWith('<'))
    throw new FeedFormatError(feed, `the body is HTML or XML, not JSON (starts "${start.slice(0, 32)}")`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new FeedFormatError(feed, `the body is not JSON (${(e as Error).message})`);
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-empty string, or null. */
export const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

const TIME_TAG = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** An SWPC `time_tag` as ISO UTC (a tag without a zone is UTC; a space may stand for the T), or null. */
export function swpcTimeUtc(tag: unknown): string | null {
  if (typeof tag !== 'string' || !TIME_TAG.test(tag)) return null;
  const iso = tag.replace(' ', 'T');
  const ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
