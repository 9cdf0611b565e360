/** What an infrastructure line is, as a tenant tags it (docs/vessels.md). Untagged lines are `unclassified`. */
export const LINE_KINDS = ['subsea_cable', 'pipeline', 'power_line', 'other'] as const;
export type LineKind = (typeof LINE_KINDS)[number];
