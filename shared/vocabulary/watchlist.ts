/** The words of a tenant's watchlist (docs/watchlist.md), shared by its schemas, its items and its matcher. */

/** What a watchlist entry watches. */
export const WATCHLIST_ENTITY_TYPES = ['vessel', 'line', 'ip', 'domain', 'asn', 'country'] as const;
export type WatchlistEntityType = (typeof WATCHLIST_ENTITY_TYPES)[number];

/** Entries a tenant may have: past it, adding one is 409 until one is removed. */
export const MAX_WATCHLIST_ENTRIES = 1000;

/**
 * Vertices a watched line's entry keeps of its line: a longer line is thinned evenly to this many
 * (its first and last vertices always kept), and the entry says it was (`thinned`).
 */
export const MAX_WATCHED_LINE_VERTICES = 500;

/** What an entry the caller may not see (unknown, or another tenant's) is answered with. */
export const WATCHLIST_ENTRY_NOT_FOUND = 'Watchlist entry not found';

/** What a line the tenant does not have (unknown file or line, or another tenant's) is answered with. */
export const WATCHED_LINE_NOT_FOUND = 'Infrastructure line not found';
