/** Bytes to text for the text formats (KML, GeoJSON): byte order marks and XML declarations honoured. */

/** UTF-8 unless a byte order mark or an XML declaration says otherwise. */
export function decodeText(data: Uint8Array): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  const start = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0;
  const declared = declaredXmlEncoding(data.subarray(start, start + 200));
  const body = data.subarray(start);
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    // An encoding the runtime does not know: read it as UTF-8 and let the parser judge.
    return new TextDecoder('utf-8').decode(body);
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
