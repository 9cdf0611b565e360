/**
 * Adding a feed is one catalog entry (shared/schemas/feed-catalog.ts) and its parser file in
 * shared/feeds: everything else that names feeds is derived from the catalog. This says so.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAZARD_FEEDS as DOMAIN_HAZARD_FEEDS, isHazardFeed } from '../../shared/domain/connectors/hazard-feeds.js';
import { FEEDS } from '../../shared/domain/connectors/poll-feed.js';
import { isRoutingFeed, ROUTING_FEEDS as DOMAIN_ROUTING_FEEDS } from '../../shared/domain/connectors/routing-feeds.js';
import { buildOpenApiDocument } from '../../shared/openapi/document.js';
import { ROUTES } from '../../shared/routes/index.js';
import { connectorListQuery, connectorResponse } from '../../shared/schemas/connectors.js';
import { environmentalRiskAnswer } from '../../shared/schemas/environmental-risk.js';
import {
  ADVISORY_FEEDS,
  FEED_CATALOG,
  FEED_FAMILIES,
  FEED_NAMES,
  feedsOf,
  HAZARD_FEEDS,
  ROUTING_FEEDS,
  type FeedName,
} from '../../shared/schemas/feed-catalog.js';
import { FEED_NAMES as INTEGRATION_FEED_NAMES } from '../../shared/schemas/integrations.js';

const FEEDS_DIR = join(import.meta.dirname, '..', '..', 'shared', 'feeds');
const entries = Object.entries(FEED_CATALOG) as [FeedName, (typeof FEED_CATALOG)[FeedName]][];

/** The modules of shared/feeds, each with its exported parsers (`parseX(body, sourceUrl)`). */
async function feedModules(): Promise<Map<string, unknown[]>> {
  const modules = new Map<string, unknown[]>();
  for (const file of readdirSync(FEEDS_DIR).filter((f) => f.endsWith('.ts'))) {
    const exports = (await import(join(FEEDS_DIR, file))) as Record<string, unknown>;
    // A feed's parser takes the document and its source's URL; helpers (parsePrefix) take one value.
    const parsers = Object.entries(exports)
      .filter(([name, value]) => /^parse[A-Z]/.test(name) && typeof value === 'function' && value.length === 2)
      .map(([, value]) => value);
    modules.set(file.replace(/\.ts$/, ''), parsers);
  }
  return modules;
}

describe('the feed catalog', () => {
  it("every feed's parser is from the module of shared/feeds its entry names, and every parser module is named by an entry", async () => {
    const modules = await feedModules();
    for (const [feed, entry] of entries) {
      expect(modules.has(entry.parser), `${feed}: no shared/feeds/${entry.parser}.ts`).toBe(true);
      expect(modules.get(entry.parser), `${feed}: its parser is not one of shared/feeds/${entry.parser}.ts`).toContain(
        FEEDS[feed].parse,
      );
    }
    const parserModules = [...modules].filter(([, parsers]) => parsers.length > 0).map(([name]) => name);
    const named = new Set<string>(entries.map(([, e]) => e.parser));
    expect(parserModules.filter((m) => !named.has(m))).toEqual([]);
    // Every parser of every module is some feed's.
    const used = new Set<unknown>(Object.values(FEEDS).map((f) => f.parse));
    expect([...modules.values()].flat().filter((p) => !used.has(p))).toEqual([]);
  });

  it("every entry's family is one the pollers handle, and the family lists are the catalog's", () => {
    for (const [feed, entry] of entries) expect(FEED_FAMILIES, feed).toContain(entry.family);
    expect(HAZARD_FEEDS).toEqual(['usgs-quakes', 'gdacs', 'nws-alerts']);
    expect(ADVISORY_FEEDS).toEqual(['state-dept-advisories', 'canada-advisory', 'geopolitical-list']);
    expect(ROUTING_FEEDS).toEqual(['rpki-vrps', 'ris-live']);
    expect(DOMAIN_HAZARD_FEEDS).toBe(HAZARD_FEEDS);
    expect(DOMAIN_ROUTING_FEEDS).toBe(ROUTING_FEEDS);
    for (const feed of FEED_NAMES) {
      expect(isHazardFeed(feed), feed).toBe(FEED_CATALOG[feed].family === 'hazard');
      expect(isRoutingFeed(feed), feed).toBe(FEED_CATALOG[feed].family === 'routing');
    }
    // Each family has a feed: a family nobody uses is a branch of the poll nothing reaches.
    for (const family of FEED_FAMILIES) expect(feedsOf(family).length, family).toBeGreaterThan(0);
  });

  it("the schemas' feed names are the catalog's keys, in its order", () => {
    expect(FEED_NAMES).toEqual(Object.keys(FEED_CATALOG));
    expect(INTEGRATION_FEED_NAMES).toEqual(FEED_NAMES);
    expect(connectorResponse.properties.feed.enum).toEqual(FEED_NAMES);
    expect(connectorListQuery.properties.feed.enum).toEqual(FEED_NAMES);
    const hazard = (
      environmentalRiskAnswer as unknown as {
        properties: {
          environments: { items: { properties: { hazards: { items: { properties: { feed: { enum: unknown } } } } } } };
        };
      }
    ).properties.environments.items.properties.hazards.items.properties.feed.enum;
    expect(hazard).toEqual(HAZARD_FEEDS);
  });

  it('the OpenAPI document lists the feeds: each enum naming feeds is the catalog or one of its families', () => {
    const doc = buildOpenApiDocument(ROUTES, { version: '0.0.0' });
    const enums: unknown[][] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const e = (node as { enum?: unknown }).enum;
        // Lists of feeds (not of other things that share a name with one: a sanctions source kind `ofac-sdn`).
        if (Array.isArray(e) && e.every((v) => (FEED_NAMES as unknown[]).includes(v))) enums.push(e);
        Object.values(node).forEach(walk);
      }
    };
    walk(doc);
    expect(enums.some((e) => JSON.stringify(e) === JSON.stringify(FEED_NAMES))).toBe(true);
    const allowed = [FEED_NAMES, ...FEED_FAMILIES.map((f) => feedsOf(f))].map((list) => JSON.stringify(list));
    expect(enums.map((e) => JSON.stringify(e)).filter((e) => !allowed.includes(e))).toEqual([]);
  });

  it('a feed with no public source is one a connector must name the url of; a large poll is a routing export', () => {
    for (const [feed, entry] of entries) {
      expect(entry.maxBytes, feed).toBeGreaterThan(0);
      expect(entry.everyMinutes, feed).toBeGreaterThanOrEqual(1);
      if ('largePoll' in entry) expect(entry.family, feed).toBe('routing');
    }
  });
});
