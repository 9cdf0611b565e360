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
