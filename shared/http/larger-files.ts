/**
 * What the 413 of an upload route says of the way for larger files: the route's `largerFiles`
 * (shared/routes/types.ts, RouteUpload) with its path parameters filled in.
 */
export function largerFilesHint(
  upload: { largerFiles?: string },
  pathParameters: Record<string, string | undefined> | null | undefined,
): string {
  if (!upload.largerFiles) return 'use upload-url for larger files';
  return upload.largerFiles.replace(/\{([a-z_]+)\}/g, (name, key: string) => pathParameters?.[key] ?? name);
}
