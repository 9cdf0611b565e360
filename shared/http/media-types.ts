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
