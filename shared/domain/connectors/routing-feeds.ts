/** The feeds of internet health (docs/connectors.md), apart so that what only names them carries no parser. */
export const ROUTING_FEEDS = ['rpki-vrps', 'ris-live'] as const;
export type RoutingFeed = (typeof ROUTING_FEEDS)[number];
export const isRoutingFeed = (feed: string): feed is RoutingFeed => (ROUTING_FEEDS as readonly string[]).includes(feed);
