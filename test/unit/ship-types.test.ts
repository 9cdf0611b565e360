/** AIS ship-and-cargo type codes (ITU-R M.1371 table 53): categories, wording and speed bounds. */
import { describe, expect, it } from 'vitest';
import { CATEGORY_SPEED_KNOTS, shipTypeOf, type ShipCategory } from '../../shared/vocabulary/ship-types.js';

describe('shipTypeOf', () => {
  it.each([
    [30, 'fishing'],
    [31, 'towing'],
    [32, 'towing'],
    [33, 'dredging'],
    [34, 'other'],
    [35, 'military'],
    [36, 'sailing'],
    [37, 'pleasure'],
    [38, 'unknown'],
    [40, 'high_speed_craft'],
    [49, 'high_speed_craft'],
    [20, 'high_speed_craft'],
    [50, 'pilot'],
    [51, 'sar'],
    [52, 'tug'],
    [53, 'other'],
    [55, 'law_enforcement'],
    [58, 'other'],
    [60, 'passenger'],
    [69, 'passenger'],
    [70, 'cargo'],
    [79, 'cargo'],
    [80, 'tanker'],
    [84, 'tanker'],
    [90, 'other'],
    [99, 'other'],
    [0, 'unknown'],
    [1, 'unknown'],
    [19, 'unknown'],
    [100, 'unknown'],
    [255, 'unknown'],
    [-1, 'unknown'],
    [7.5, 'unknown'],
  ] as const)('%s is %s', (code, category) => {
    expect(shipTypeOf(code).category).toBe(category);
  });

  it('answers an absent code as unknown, keeping the null', () => {
    expect(shipTypeOf(null)).toEqual({
      code: null,
      category: 'unknown',
      description: 'Not available',
      typicalSpeedKnots: { max: 50 },
    });
  });

  it('words each code as table 53 does, the second digit saying what the ship carries', () => {
    expect(shipTypeOf(70).description).toBe('Cargo ship, all ships of this type');
    expect(shipTypeOf(71).description).toBe('Cargo ship, carrying DG, HS or MP, IMO hazard or pollutant category X');
    expect(shipTypeOf(84).description).toBe('Tanker, carrying DG, HS or MP, IMO hazard or pollutant category OS');
    expect(shipTypeOf(69).description).toBe('Passenger ship, no additional information');
    expect(shipTypeOf(45).description).toBe('High-speed craft (HSC), reserved for future use');
    expect(shipTypeOf(30).description).toBe('Fishing');
    expect(shipTypeOf(52).description).toBe('Tug');
  });

  it('gives every code of 0..99 a category and a description', () => {
    for (let code = 0; code <= 99; code++) {
      const type = shipTypeOf(code);
      expect(type.code).toBe(code);
      expect(type.description.length).toBeGreaterThanOrEqual(3);
      expect(Object.keys(CATEGORY_SPEED_KNOTS)).toContain(type.category);
    }
  });

  it('carries the speed bound of the category', () => {
    expect(shipTypeOf(70).typicalSpeedKnots).toEqual({ max: 25 });
    expect(shipTypeOf(80).typicalSpeedKnots).toEqual({ max: 20 });
    expect(shipTypeOf(60).typicalSpeedKnots).toEqual({ max: 30 });
    expect(shipTypeOf(30).typicalSpeedKnots).toEqual({ max: 15 });
  });
});

describe('the speed bounds', () => {
  it('has one for every category, faster classes above slower ones', () => {
    const max = (category: ShipCategory) => CATEGORY_SPEED_KNOTS[category].max;
    expect(max('tanker')).toBeLessThan(max('cargo'));
    expect(max('cargo')).toBeLessThan(max('passenger'));
    expect(max('passenger')).toBeLessThan(max('high_speed_craft'));
    expect(max('fishing')).toBeLessThan(max('pleasure'));
    expect(max('tug')).toBeLessThanOrEqual(max('cargo'));
    for (const { max: knots } of Object.values(CATEGORY_SPEED_KNOTS)) expect(knots).toBeGreaterThan(0);
  });

  it('would flag a cargo ship at 30 knots but not a high-speed ferry at 35', () => {
    expect(30 > shipTypeOf(70).typicalSpeedKnots.max).toBe(true);
    expect(35 > shipTypeOf(40).typicalSpeedKnots.max).toBe(false);
  });
});
