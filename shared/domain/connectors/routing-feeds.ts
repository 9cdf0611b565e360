/** The feeds of internet health (docs/connectors.md): the catalog's routing family (shared/schemas/feed-catalog.ts), apart so that what only names them carries no parser. */
import { ROUTING_FEEDS, type RoutingFeed } from '../../schemas/feed-catalog.js';

export { ROUTING_FEEDS, type RoutingFeed };
export const isRoutingFeed = (feed: string): feed is RoutingFeed => (ROUTING_FEEDS as readonly string[]).includes(feed);
