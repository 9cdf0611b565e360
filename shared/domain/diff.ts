/** What an update changes, for audit entries. */

/** Field -> { from, to } for every field of `update` whose value differs from `current`. */
export function diff(
  current: object,
  update: object,
  ignore: string[] = [],
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  const before = new Map<string, unknown>(Object.entries(current));
  for (const [key, to] of Object.entries(update)) {
    if (ignore.includes(key) || to === undefined) continue;
    const from = before.get(key) ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}
