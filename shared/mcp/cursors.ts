/** The opaque cursors paging tools hand out (docs/mcp.md "Paging"): a tool and an offset. */
import { ToolInputError } from './api-call.js';

/** A page position handed to the model: opaque, bound to its tool. */
export function encodeCursor(tool: string, offset: number): string {
  return Buffer.from(JSON.stringify({ t: tool, o: offset })).toString('base64url');
}

export function decodeCursor(tool: string, cursor: unknown): number {
  if (cursor === undefined) return 0;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
    if (
      parsed &&
      typeof parsed === 'object' &&
      't' in parsed &&
      'o' in parsed &&
      parsed.t === tool &&
      Number.isInteger(parsed.o) &&
      Number(parsed.o) >= 0
    ) {
      return Number(parsed.o);
    }
  } catch {
    // not ours: said below
  }
  throw new ToolInputError('cursor: not a cursor this tool gave (pass next_cursor as it came)');
}
