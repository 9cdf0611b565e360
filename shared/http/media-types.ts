/** Content types that travel base64-encoded through API Gateway. */

/**
 * Request content types API Gateway passes base64-encoded (the REST API's `binaryMediaTypes`).
 * The CDK stack declares this list and the local server follows it, so uploads behave alike.
 */
export const BINARY_MEDIA_TYPES: readonly string[] = [
  'multipart/form-data',
  'application/octet-stream',
  'application/zip',
  'application/pdf',
  'application/vnd.google-earth.kmz',
  'audio/*',
  'image/*',
  'video/*',
];

export function isBinaryContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return BINARY_MEDIA_TYPES.some((pattern) =>
    pattern.endsWith('/*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern,
  );
}

/**
 * Answers at least this long are gzip-compressed for a client that accepts it (the REST API's
 * `minimumCompressionSize`; the local server does the same): the 800 KB OpenAPI document and the
 * documentation's script travel as about a tenth of that. Streamed answers are not compressed.
 */
export const MIN_COMPRESSION_BYTES = 1024;

/** Whether an `Accept-Encoding` header accepts gzip (named, or `*`, with a q-value above 0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
