/** What an integration the caller may not see (unknown, or another tenant's) is answered with. */
export const INTEGRATION_NOT_FOUND = 'Integration not found';

/**
 * Kinds that are not places people are told: a `drone` dock takes dispatch commands only
 * (docs/drones.md). Naming one as a notification target is 422; lists of targets skip it.
 */
export const NOT_NOTICE_KINDS: readonly string[] = ['drone'];
export const takesNotices = (kind: string): boolean => !NOT_NOTICE_KINDS.includes(kind);
