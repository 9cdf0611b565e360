/**
 * The routing watch built from a tenant's watchlist (shared/domain/internet-health/routing-watch.ts):
 * `ip` ranges are the watched prefixes, `asn` entries their expected origins and the watched ASes;
 * the RIS Live filter names exactly those prefixes; and the watch, given to the detector with the
 * real RIS Live capture (test/fixtures/feeds/ripe-ris), raises what a tenant would expect.
 */
import { describe, expect, it } from 'vitest';
import { detectRoutingAlerts } from '../../shared/feeds/bgp-alerts.js';
import { parseRisLive } from '../../shared/feeds/ripe-ris.js';
import {
  alertWatch,
  MAX_WATCHED_PREFIXES,
  overlapsAny,
  risSubscription,
  routingWatch,
  watchedBy,
} from '../../shared/domain/internet-health/routing-watch.js';
import { feedFixture } from '../support/feed-server.js';

const entries = [
  { entity_type: 'ip', value: '64.68.236.0/22' },
  { entity_type: 'ip', value: '198.51.100.7' },
  { entity_type: 'domain', value: 'example.net' },
  { entity_type: 'asn', value: 13904 },
  { entity_type: 'ip', value: '2602:fd9e:f00::/40' },
  { entity_type: 'asn', value: 64500 },
  { entity_type: 'ip', value: '64.68.236.0/22' },
];

describe('routingWatch', () => {
  it('watches the ip ranges, not single addresses, with every watched ASN as an expected origin', () => {
    const { watch, left_out } = routingWatch(entries, false);
    expect(left_out).toBe(0);
    expect(watch.prefixes).toEqual([
      { prefix: '64.68.236.0/22', origins: [13904, 64500] },
      { prefix: '2602:fd9e:f00::/40', origins: [13904, 64500] },
    ]);
    expect(watch.asns).toEqual([
      { asn: 13904, provides_transit: false },
      { asn: 64500, provides_transit: false },
    ]);
    expect(routingWatch(entries, true).watch.asns.every((a) => a.provides_transit)).toBe(true);
  });

  it('watches at most MAX_WATCHED_PREFIXES ranges and counts the rest', () => {
    const many = Array.from({ length: MAX_WATCHED_PREFIXES + 3 }, (_, i) => ({
      entity_type: 'ip',
      value: `10.${i >> 8}.${i & 255}.0/24`,
    }));
    const { watch, left_out } = routingWatch(many, false);
    expect(watch.prefixes).toHaveLength(MAX_WATCHED_PREFIXES);
    expect(left_out).toBe(3);
  });

  it('asks RIS Live for updates of the watched prefixes and their more-specifics only', () => {
    const { watch } = routingWatch(entries, false);
    expect(JSON.parse(risSubscription(watch))).toEqual({
      type: 'UPDATE',
      prefix: ['64.68.236.0/22', '2602:fd9e:f00::/40'],
      moreSpecific: true,
      lessSpecific: false,
    });
  });

  it('keeps updates inside a watched prefix, and VRPs overlapping one either way', () => {
    const { watch } = routingWatch(entries, false);
    const watched = watchedBy(watch);
    expect([
      watched('64.68.236.0/22'),
      watched('64.68.237.0/24'),
      watched('64.68.0.0/16'),
      watched('102.66.116.0/24'),
    ]).toEqual([true, true, false, false]);
    const overlaps = overlapsAny(watch);
    expect([
      overlaps('64.68.0.0/16'),
      overlaps('64.68.237.0/24'),
      overlaps('2602:fd9e::/32'),
      overlaps('93.175.147.0/24'),
    ]).toEqual([true, true, true, false]);
  });

  it('given to the detector with the real RIS capture, flags the watched prefix announced by another origin, once', () => {
    const { records } = parseRisLive(feedFixture('ripe-ris/ris-live-messages.bgpkit.ndjson').toString('utf8'), 'ris');
    // AS13904 originates 64.68.236.0/22 in the capture; AS397666 originates 2602:fd9e:f00::/40.
    const { watch } = routingWatch(
      [
        { entity_type: 'ip', value: '64.68.236.0/22' },
        { entity_type: 'ip', value: '2602:fd9e:f00::/40' },
        { entity_type: 'asn', value: 13904 },
      ],
      false,
    );
    const alerts = detectRoutingAlerts(records, watch);
    expect(alerts.map((a) => [a.kind, a.rule, a.prefix, a.origin_asn])).toEqual([
      ['possible_hijack', 'unexpected_origin', '2602:fd9e:f00::/40', 397666],
    ]);
  });

  it('judges no origin of a prefix when the watchlist names no ASN, instead of flagging every announcement', () => {
    const { records } = parseRisLive(feedFixture('ripe-ris/ris-live-messages.bgpkit.ndjson').toString('utf8'), 'ris');
    const { watch } = routingWatch([{ entity_type: 'ip', value: '64.68.236.0/22' }], false);
    expect(detectRoutingAlerts(records, watch)).toHaveLength(1);
    expect(detectRoutingAlerts(records, alertWatch(watch))).toEqual([]);
    expect(alertWatch(routingWatch(entries, false).watch).prefixes).toHaveLength(2);
  });
});
