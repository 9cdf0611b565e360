/**
 * Strict XML parsing with @xmldom/xmldom, for the KML extraction (shared/domain/infrastructure/kml.ts)
 * and the feed parsers that read XML (shared/feeds/feed-xml.ts): below both, so a feed imports
 * downward only.
 */
import type { Document } from '@xmldom/xmldom';

/**
 * Parses XML; throws on anything the parser reports as an error (a warning, such as an unknown
 * entity reference, does not stop it). No external entity or DTD is ever fetched.
 */
export function parseXml(DOMParser: typeof import('@xmldom/xmldom').DOMParser, text: string): Document {
  let problem: string | undefined;
  const parser = new DOMParser({
    locator: false,
    onError: (level, message) => {
      if (level === 'warning') return;
      problem ??= message;
      throw new Error(message);
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(text, 'text/xml');
  } catch (err) {
    // xmldom wraps what onError threw; the first message is the one worth showing.
    throw new Error(problem ?? (err as Error).message, { cause: err });
  }
  if (!doc.documentElement) throw new Error('no root element');
  return doc;
}

const TOKEN =
  /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|</g;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));|&/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const decode = (text: string) =>
  text.replace(ENTITY, (whole, name?: string, dec?: string, hex?: string) => {
    if (name) return NAMED[name]!;
    if (dec ?? hex) return String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16));
    throw new Error(`a bare & in ${JSON.stringify(whole)}`);
  });

/**
 * The text of the first element at `path` (local names from the root element down; namespaces
 * ignored), trimmed; undefined when there is none. For the small answers of AWS's query APIs (STS:
 * shared/adapters/sts-assume-role.ts) without a DOM: @xmldom/xmldom is ~90 KB of a bundle. Reads
 * the declaration, comments, attributes, empty elements, CDATA and the predefined and numeric
 * entities; throws on a document that is not well formed, or that declares a DTD.
 */
export function xmlPathText(text: string, path: readonly string[]): string | undefined {
  const open: string[] = [];
  let found: string | undefined;
  let inside = false;
  let rooted = false;
  for (const m of text.matchAll(TOKEN)) {
    const [whole, cdata, closing, qname, , empty, chars] = m;
    if (chars !== undefined) {
      if (inside) found! += decode(chars);
      else if (open.length === 0 && chars.trim()) throw new Error('text outside the root element');
      else decode(chars);
    } else if (cdata !== undefined) {
      if (open.length === 0) throw new Error('CDATA outside the root element');
      if (inside) found! += cdata;
    } else if (qname !== undefined) {
      const name = qname.slice(qname.indexOf(':') + 1);
      if (closing) {
        if (open.pop() !== name) throw new Error(`</${qname}> closes no open element`);
        if (inside && open.length < path.length) inside = false;
      } else {
        if (open.length === 0 && rooted) throw new Error('a second root element');
        rooted = true;
        const at = found === undefined && open.length === path.length - 1 && open.every((n, i) => n === path[i]);
        if (at && name === path[open.length]) {
          found = '';
          inside = !empty;
        }
        if (!empty) open.push(name);
      }
    } else if (whole === '<') {
      throw new Error(/^<!DOCTYPE/i.test(text.slice(m.index)) ? 'a DTD is not read' : `a bare < at ${m.index}`);
    }
    // Else a comment or the declaration: nothing to read.
  }
  if (!rooted || open.length > 0) throw new Error('no complete root element');
  return found?.trim();
}
