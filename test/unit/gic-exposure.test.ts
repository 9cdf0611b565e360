/**
 * A line's exposure to geomagnetically induced currents (shared/domain/connectors/gic-exposure.ts):
 * centred-dipole geomagnetic latitude, the auroral oval's edge at a Kp value, and the level a line
 * gets from where it lies.
 */
import { gicAt } from '../../shared/domain/connectors/space-weather.js';
import { describe, expect, it } from 'vitest';
import {
  auroralEdge,
  conductorExposure,
  GEOMAGNETIC_POLE,
  geomagneticLatitude,
} from '../../shared/domain/connectors/gic-exposure.js';

describe('geomagneticLatitude', () => {
  it('is 90 at the geomagnetic pole, -90 at its antipode, and puts Tromsø in the auroral zone and Singapore near the magnetic equator', () => {
    expect(geomagneticLatitude(GEOMAGNETIC_POLE.lat, GEOMAGNETIC_POLE.lon)).toBeCloseTo(90, 5);
    expect(geomagneticLatitude(-GEOMAGNETIC_POLE.lat, GEOMAGNETIC_POLE.lon + 180)).toBeCloseTo(-90, 5);
    // Tromsø's auroral observatory lies under the oval on quiet nights (about 67° geomagnetic).
    expect(geomagneticLatitude(69.65, 18.96)).toBeGreaterThan(66);
    expect(Math.abs(geomagneticLatitude(1.35, 103.8))).toBeLessThan(10);
    // The dipole leans towards North America: Ottawa, six degrees south of Dover, is further from the magnetic equator.
    expect(geomagneticLatitude(45.4, -75.7)).toBeGreaterThan(geomagneticLatitude(51.12, 1.31));
    expect(geomagneticLatitude(-42.9, 147.3)).toBeLessThan(-45);
  });
});

describe('auroralEdge', () => {
  it('moves the oval two degrees towards the equator per Kp step from 66 degrees', () => {
    expect(auroralEdge(0)).toBe(66);
    expect(auroralEdge(5.33)).toBe(55.34);
    expect(auroralEdge(9)).toBe(48);
  });
});

describe('conductorExposure', () => {
  const oslo: [number, number, number, number] = [10.6, 59.8, 10.9, 60.0];
  const dover: [number, number, number, number] = [1.3, 51.0, 1.9, 51.2];
  const singapore: [number, number, number, number] = [103.6, 1.2, 104.0, 1.4];

  it('raises a line under the auroral oval one level, keeps a mid-latitude one, and never takes a storm below low', () => {
    expect(conductorExposure(oslo, 5.33, 'low')).toEqual({
      magnetic_latitude: expect.closeTo(59.7, 0),
      band: 'auroral',
      risk: 'moderate',
    });
    expect(conductorExposure(dover, 5.33, 'low')).toMatchObject({ band: 'mid', risk: 'low' });
    expect(conductorExposure(singapore, 5.33, 'low')).toMatchObject({ band: 'low', risk: 'low' });
    expect(conductorExposure(singapore, 8, 'severe')).toMatchObject({ band: 'low', risk: 'high' });
    expect(conductorExposure(oslo, 9, 'extreme')).toMatchObject({ band: 'auroral', risk: 'extreme' });
  });

  it('takes the most poleward corner of the line, and raises nothing below storm level', () => {
    // A line from Dover to Oslo reaches the oval at Kp 5.33 by its northern end.
    expect(conductorExposure([1.3, 51.0, 10.9, 60.0], 5.33, 'low')).toMatchObject({
      band: 'auroral',
      risk: 'moderate',
    });
    expect(conductorExposure(oslo, 4, 'none')).toMatchObject({ band: 'auroral', risk: 'none' });
    expect(conductorExposure(singapore, 2, 'none')).toMatchObject({ band: 'low', risk: 'none' });
  });
});

describe('the space weather answer’s GIC level', () => {
  it('is unknown with no Kp reading, not the "none" of a quiet sky', () => {
    expect(gicAt(null)).toMatchObject({
      kp: null,
      g_scale: null,
      risk: 'unknown',
      auroral_edge_magnetic_latitude: null,
    });
    expect(gicAt(null).effects).toMatch(/cannot be told/);
    expect(gicAt(2)).toMatchObject({ kp: 2, g_scale: null, risk: 'none' });
    expect(gicAt(5.33)).toMatchObject({ kp: 5.33, g_scale: 'G1', risk: 'low', auroral_edge_magnetic_latitude: 55.34 });
  });
});
