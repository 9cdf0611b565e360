/**
 * XML for the feed parsers that read XML (CAP/Atom): the repo's XML parser (@xmldom/xmldom, the
 * one the KML extraction uses, through the same strict `parseXml`), and the few DOM walks the
 * parsers need, by local name so that a namespace prefix or version (CAP 1.1 or 1.2) does not
 * matter. No DTD or external entity is ever fetched.
 */
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { parseXml } from '../xml.js';
import { FeedFormatError } from './feed-document.js';

/** The body as an XML document, or a FeedFormatError that says what came instead. */
export function readXml(text: string, feed: string): Document {
  if (!text.trimStart().startsWith('<'))
    throw new FeedFormatError(feed, `the body is not XML (starts "${text.trimStart().slice(0, 32)}")`);
  try {
    return parseXml(DOMParser, text);
  } catch (e) {
    throw new FeedFormatError(feed, `the body is not well-formed XML (${(e as Error).message.split('\n')[0]})`);
  }
}

/** The element children of `el` whose local name is `name` (any namespace). */
export function childElements(el: Element, name?: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (name === undefined || (n as Element).localName === name)) out.push(n as Element);
  }
  return out;
}

/** The trimmed text of the first child element named `name`, or null when absent or empty. */
export function childText(el: Element, name: string): string | null {
  const c = childElements(el, name)[0];
  const t = c?.textContent?.trim();
  return t ? t : null;
}
