/** Bytes to text for the text formats (KML, GeoJSON): byte order marks and XML declarations honoured. */

/** UTF-8 unless a byte order mark or an XML declaration says otherwise. */
export function decodeText(data: Uint8Array): string {
  return new TextDecoder(textEncodingOf(data)).decode(data);
}

/**
 * The encoding of a text from its first bytes (a byte order mark, else an XML declaration, else
 * UTF-8), one the runtime's TextDecoder knows; the decoder drops the byte order mark itself.
 */
export function textEncodingOf(head: Uint8Array): string {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  // A UTF-8 byte order mark wins over a declaration, as XML says.
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  const declared = declaredXmlEncoding(head.subarray(0, 200));
  if (!declared) return 'utf-8';
  try {
    new TextDecoder(declared);
    return declared;
  } catch {
    // An encoding the runtime does not know: read it as UTF-8 and let the parser judge.
    return 'utf-8';
  }
}

/** `encoding="..."` of an XML declaration at the very start, if any. */
function declaredXmlEncoding(head: Uint8Array): string | null {
  const text = Buffer.from(head).toString('latin1');
  const match = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(text);
  return match?.[1] ?? null;
}

/** The first character that is not white space (after a byte order mark), or '' for none. */
export function firstSignificantChar(data: Uint8Array): string {
  // 512 bytes are plenty to get past leading white space; UTF-16 needs decoding first.
  const head = decodeText(data.subarray(0, 512));
  return /\S/.exec(head)?.[0] ?? '';
}
