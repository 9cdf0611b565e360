/**
 * Counts what shared/db reads, from inside the process: each DynamoDB call made through its client
 * and the items each read (a Query's or Scan's `ScannedCount`, the items before its filter,
 * which is what it is billed for; the items a GetItem or BatchGetItem found). For tests that
 * say a read costs the same whatever the tenant holds: they compare counts, never time.
 */
import { db } from '../../shared/db/client.js';

export interface ReadTally {
  calls: number;
  /** Items read, found or evaluated. */
  items: number;
  /** The calls by command name. */
  commands: string[];
}

const NAME = 'test-read-counter';

/** Counts the reads `run` makes. */
export async function countReads<T>(run: () => Promise<T>): Promise<{ result: T; tally: ReadTally }> {
  const tally: ReadTally = { calls: 0, items: 0, commands: [] };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const o = out.output as {
        ScannedCount?: number;
        Item?: unknown;
        Responses?: Record<string, unknown[]> | unknown[];
      };
      tally.calls++;
      tally.commands.push(String(context.commandName));
      tally.items +=
        o.ScannedCount ??
        (o.Item ? 1 : 0) +
          Object.values(o.Responses ?? {}).reduce<number>((n, r) => n + (Array.isArray(r) ? r.length : 1), 0);
      return out;
    },
    { step: 'initialize', name: NAME },
  );
  try {
    return { result: await run(), tally };
  } finally {
    db.middlewareStack.remove(NAME);
  }
}
