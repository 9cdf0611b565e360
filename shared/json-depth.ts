/**
 * How deep JSON text nests, read before it is parsed: for the request bodies
 * (shared/http/json-body.ts) and the GeoJSON files (shared/domain/infrastructure/detect.ts), below
 * both. JSON.parse takes any depth, but much of what walks the value afterwards recurses (the
 * body checks, JSON.stringify, structuredClone), and 60 KB of brackets overflows its stack: a bound
 * read in one linear pass, without recursion, keeps every later walk short.
 */

/**
 * The deepest nesting of arrays and objects taken. A real client's JSON is a handful of levels;
 * DynamoDB stores maps and lists at most 32 levels deep, so a body deeper than that could not be
 * stored as given anyway (an event's `payload`, one level inside the body, may then be 31 deep:
 * DynamoDB takes that).
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }

/**
 * Whether `text` nests arrays and objects deeper than `limit` levels (`[]` and `{}` are one
 * level). Brackets inside strings do not count; the text need not be valid JSON (JSON.parse judges
 * that afterwards). Stops at the first bracket past the limit.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth > 0) depth--;
  }
  return false;
}
