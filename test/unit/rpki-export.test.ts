/**
 * The compact list an RPKI export is kept as (shared/domain/internet-health/rpki-export.ts), on
 * the real Routinator exports (test/fixtures/feeds/rpki): the same VRPs in another order give the
 * same text (so the same hash: a re-poll writes nothing), and reading the list back gives the
 * parser's records, narrowed to what a watch keeps when asked.
 */
import { describe, expect, it } from 'vitest';
import { compactVrps, readCompactVrps } from '../../shared/domain/internet-health/rpki-export.js';
import { parseRpkiVrps } from '../../shared/feeds/rpki-vrps.js';
import { feedFixture } from '../support/feed-server.js';

const URL_ = 'https://validator.example/json';
const { records } = parseRpkiVrps(feedFixture('rpki/routinator-json.as196615.2021-07-21.json').toString('utf8'), URL_);

describe('compactVrps', () => {
  it("writes one sorted line per VRP, whatever the export's order", () => {
    expect(compactVrps(records)).toBe(
      ['196615 2001:7fb:fd03::/48 48 ripe', '196615 2001:7fb:fd04::/48 48 ripe', '196615 93.175.147.0/24 24 ripe'].join(
        '\n',
      ),
    );
    expect(compactVrps([...records].reverse())).toBe(compactVrps(records));
  });

  it("reads back the parser's records, or only those a watch keeps", () => {
    const back = readCompactVrps(compactVrps(records), URL_);
    expect(back.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...records].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(readCompactVrps(compactVrps(records), URL_, (p) => p.includes('.')).map((v) => v.id)).toEqual([
      'vrp-196615-93.175.147.0/24-24',
    ]);
  });
});
