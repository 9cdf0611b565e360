import { describe, expect, it } from 'vitest';
import {
  compileDefinitions,
  matchEvent,
  signatureFactor,
  type DefinitionLike,
  type MatchInput,
} from '../../shared/domain/threat-libraries/matching.js';

const def = (over: Partial<DefinitionLike> & Pick<DefinitionLike, 'match'>): DefinitionLike => ({
  definition_id: 'd1',
  name: 'Definition one',
  description: '',
  severity: 'high',
  weight: 0.3,
  active: true,
  indicators: null,
  ...over,
});

const lib = (...definitions: DefinitionLike[]) =>
  compileDefinitions([{ library_id: 'lib-1', active: true, definitions }]);

const event = (over: Partial<MatchInput> = {}): MatchInput => ({
  type: 'vessel.loitering',
  occurredAt: '2026-11-24T02:30:00.000Z',
  timezone: 'UTC',
  zones: [{ zone_id: 'z-cable', type: 'waterside', security_level: 4 }],
  description: null,
  payload: {},
  repeatsInZone: () => 1,
  ...over,
});

const names = (defs: ReturnType<typeof lib>, input: MatchInput) => matchEvent(defs, input).map((m) => m.definition_id);

describe('threat definition matching', () => {
  it('matches on event type and says which library, definition, severity, weight and zone', () => {
    const defs = lib(def({ match: { event_types: ['vessel.loitering'] } }));
    expect(matchEvent(defs, event())).toEqual([
      {
        library_id: 'lib-1',
        definition_id: 'd1',
        name: 'Definition one',
        severity: 'high',
        weight: 0.3,
        zone_id: 'z-cable',
      },
    ]);
    expect(matchEvent(defs, event({ type: 'ais.position' }))).toEqual([]);
  });

  it('skips inactive definitions and everything in an inactive library', () => {
    const d = def({ match: { event_types: ['vessel.loitering'] } });
    expect(matchEvent(lib({ ...d, active: false }), event())).toEqual([]);
    expect(matchEvent(compileDefinitions([{ library_id: 'l', active: false, definitions: [d] }]), event())).toEqual([]);
  });

  it('needs one and the same zone to satisfy zone type, security level and repeats', () => {
    const defs = lib(
      def({
        match: {
          event_types: ['access.denied'],
          zone_types: ['entrance'],
          min_security_level: 3,
          repeat: { count: 5 },
        },
      }),
    );
    const zones = [
      { zone_id: 'lobby', type: 'entrance', security_level: 2 },
      { zone_id: 'vault', type: 'restricted', security_level: 5 },
    ];
    // The entrance is not secure enough and the secure zone is no entrance: no single zone holds.
    expect(names(defs, event({ type: 'access.denied', zones, repeatsInZone: () => 9 }))).toEqual([]);
    const gate = { zone_id: 'gate', type: 'entrance', security_level: 3 };
    expect(
      names(
        defs,
        event({ type: 'access.denied', zones: [...zones, gate], repeatsInZone: (z) => (z === 'gate' ? 4 : 9) }),
      ),
    ).toEqual([]);
    const fifth = matchEvent(
      defs,
      event({ type: 'access.denied', zones: [...zones, gate], repeatsInZone: (z) => (z === 'gate' ? 5 : 0) }),
    );
    expect(fifth.map((m) => m.zone_id)).toEqual(['gate']);
    // Repeats are counted per zone: an event outside every zone never repeats.
    expect(
      names(
        lib(def({ match: { event_types: ['access.denied'], repeat: { count: 2 } } })),
        event({ type: 'access.denied', zones: [], repeatsInZone: () => 50 }),
      ),
    ).toEqual([]);
  });

  it('reads hours in the tenant time zone, across midnight', () => {
    const defs = lib(def({ match: { event_types: ['vessel.loitering'], hours: { start: '22:00', end: '05:00' } } }));
    expect(names(defs, event({ occurredAt: '2026-11-24T02:30:00.000Z' }))).toEqual(['d1']);
    expect(names(defs, event({ occurredAt: '2026-11-24T12:00:00.000Z' }))).toEqual([]);
    // 12:00 UTC is 23:00 in Sydney (UTC+11 in November).
    expect(names(defs, event({ occurredAt: '2026-11-24T12:00:00.000Z', timezone: 'Australia/Sydney' }))).toEqual([
      'd1',
    ]);
  });

  it('finds keywords as whole words in the description or payload texts, any case', () => {
    const defs = lib(
      def({ match: { event_types: ['fibre.disturbance'], keywords: ['digging', 'mechanical excavation'] } }),
    );
    const fibre = (over: Partial<MatchInput>) => event({ type: 'fibre.disturbance', ...over });
    expect(names(defs, fibre({ description: 'Rhythmic DIGGING at 4.2 km' }))).toEqual(['d1']);
    expect(names(defs, fibre({ payload: { classifier: { label: 'mechanical  excavation' } } }))).toEqual(['d1']);
    expect(names(defs, fibre({ description: 'diggings of a badger' }))).toEqual([]);
    expect(names(defs, fibre({ description: 'vehicle passing' }))).toEqual([]);
  });

  it('holds every payload threshold on numbers only', () => {
    const defs = lib(
      def({
        match: {
          event_types: ['vessel.loitering'],
          payload: [
            { field: 'speed_knots', op: 'lte', value: 2 },
            { field: 'track.duration_minutes', op: 'gte', value: 30 },
          ],
        },
      }),
    );
    expect(names(defs, event({ payload: { speed_knots: 0.4, track: { duration_minutes: 45 } } }))).toEqual(['d1']);
    expect(names(defs, event({ payload: { speed_knots: 0.4, track: { duration_minutes: 20 } } }))).toEqual([]);
    expect(names(defs, event({ payload: { speed_knots: '0.4', track: { duration_minutes: 45 } } }))).toEqual([]);
    expect(names(defs, event({ payload: { speed_knots: 0.4 } }))).toEqual([]);
  });

  it('matches indicators: IPs, MMSIs as text or number, domains and their subdomains', () => {
    const defs = lib(
      def({
        match: { event_types: ['sensor.alert', 'vessel.loitering'] },
        indicators: { ips: ['203.0.113.7', '2001:DB8::1'], domains: ['evil.example'], mmsis: ['273456789'] },
      }),
    );
    expect(names(defs, event({ type: 'sensor.alert', payload: { source_ip: '203.0.113.7' } }))).toEqual(['d1']);
    expect(names(defs, event({ type: 'sensor.alert', payload: { peers: ['2001:db8::1'] } }))).toEqual(['d1']);
    expect(names(defs, event({ type: 'sensor.alert', payload: { host: 'c2.EVIL.example.' } }))).toEqual(['d1']);
    expect(names(defs, event({ type: 'sensor.alert', payload: { host: 'notevil.example' } }))).toEqual([]);
    expect(names(defs, event({ payload: { vessel: { mmsi: 273456789 } } }))).toEqual(['d1']);
    expect(names(defs, event({ payload: { vessel: { mmsi: 273456780 } } }))).toEqual([]);
  });

  it('adds the matches as one factor: weights summed, capped at 1', () => {
    const defs = lib(
      def({ definition_id: 'a', weight: 0.45, match: { event_types: ['vessel.loitering'] } }),
      def({ definition_id: 'b', weight: 0.7, match: { event_types: ['vessel.loitering'] } }),
    );
    const matches = matchEvent(defs, event());
    expect(matches.map((m) => m.definition_id)).toEqual(['a', 'b']);
    expect(signatureFactor(matches)).toEqual({ value: 1, weight: 1 });
    expect(signatureFactor(matches.slice(0, 1))).toEqual({ value: 0.45, weight: 1 });
    expect(signatureFactor([])).toBeNull();
  });
});
