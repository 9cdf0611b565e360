/**
 * Real-format AIS traffic for the tests, written with an encoder (ggencoder's AisEncode, the same
 * library that decodes): class A position reports (type 1), static and voyage data (type 5) split
 * into the two sentences radios send, and class B static data (type 24), each with a valid NMEA
 * checksum. The scenario: a subsea cable in the Strait of Dover and three vessels near it.
 */
import ggencoder from 'ggencoder';
import { expect } from 'vitest';
import { call } from './api.js';

/** The cable, west to east, [lon, lat]. */
export const CABLE: [number, number][] = [
  [1.4, 51.1],
  [1.6, 51.15],
  [1.8, 51.2],
];
/** On the cable: where the loitering vessel stops. */
export const ON_CABLE = { lat: 51.15, lon: 1.6 };
/** 20 km north of the loitering point (18.6 km from the nearest stretch of the cable). */
export const FAR_FROM_CABLE = { lat: 51.33, lon: 1.6 };

export const CABLE_KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Cables</name>
<Placemark><name>Channel Link 1</name><LineString><coordinates>${CABLE.map(([lon, lat]) => `${lon},${lat},0`).join(' ')}</coordinates></LineString></Placemark>
</Document></kml>`;

function checksum(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum.toString(16).toUpperCase().padStart(2, '0');
}

const sentence = (fields: (string | number)[]) => {
  const body = `AIVDM,${fields.join(',')}`;
  return `!${body}*${checksum(body)}`;
};

function encode(message: Record<string, unknown>): string {
  const out = new ggencoder.AisEncode(message);
  if (!out.valid) throw new Error(`could not encode ${JSON.stringify(message)}`);
  return out.nmea;
}

export interface Report {
  at: Date;
  nmea: string[];
}

/** A class A position report. */
export function positionReport(
  mmsi: number,
  at: Date,
  p: { lat: number; lon: number; sog: number; cog: number; navstatus?: number },
): Report {
  return {
    at,
    nmea: [
      encode({
        aistype: 1,
        mmsi,
        navstatus: p.navstatus ?? 0,
        lat: p.lat,
        lon: p.lon,
        sog: p.sog,
        cog: p.cog,
        hdg: Math.round(p.cog),
        rot: 0,
      }),
    ],
  };
}

/** Static and voyage data (type 5), as two sentences of one message (sequence id 3). */
export function staticReport(
  mmsi: number,
  at: Date,
  s: { name: string; callsign: string; imo: number; cargo: number; destination: string },
): Report {
  const one = encode({
    aistype: 5,
    mmsi,
    imo: s.imo,
    callsign: s.callsign,
    shipname: s.name,
    cargo: s.cargo,
    dimA: 120,
    dimB: 30,
    dimC: 12,
    dimD: 12,
    etaMo: 11,
    etaDay: 26,
    etaHr: 8,
    etaMin: 0,
    draught: 7.5,
    destination: s.destination,
  });
  const [, , , , channel, payload, fill] = one.slice(1, one.indexOf('*')).split(',');
  return {
    at,
    nmea: [
      sentence([2, 1, 3, channel!, payload!.slice(0, 60), 0]),
      sentence([2, 2, 3, channel!, payload!.slice(60), fill!]),
    ],
  };
}

/** Class B static data, part A (the name). */
export function classBName(mmsi: number, at: Date, name: string): Report {
  return { at, nmea: [encode({ aistype: 24, part: 0, mmsi, shipname: name })] };
}

const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);

/** Moves `metres` along a bearing (degrees), flat-earth: good enough over a few km. */
function move(p: { lat: number; lon: number }, bearing: number, metres: number) {
  const rad = (bearing * Math.PI) / 180;
  return {
    lat: p.lat + (metres * Math.cos(rad)) / 111_320,
    lon: p.lon + (metres * Math.sin(rad)) / (111_320 * Math.cos((p.lat * Math.PI) / 180)),
  };
}

export const VESSELS = {
  /** Crosses the strait, goes dark for 40 minutes, reappears further on. */
  dark: {
    mmsi: 235000001,
    name: 'NORTHERN STAR',
    callsign: 'MNST1',
    imo: 9300001,
    cargo: 70,
    destination: 'ROTTERDAM',
  },
  /** Stops over the cable and stays there for an hour. */
  loiterer: { mmsi: 257000002, name: 'SEA ANCHOR', callsign: 'LASA2', imo: 9300002, cargo: 30, destination: 'DOVER' },
  /** Passes by normally. */
  passer: { mmsi: 366000003, name: 'BLUE YONDER' },
} as const;

/**
 * The three vessels' reports from `start`, in time order: the dark one reports every 2 minutes for
 * 40 minutes, is silent 40, reports again for 20; the loiterer drifts within 150 m of the cable
 * point for 60 minutes at 0.3 knots; the passer steams north-east well away from the cable.
 */
export function scenario(start: Date): Report[] {
  const reports: Report[] = [
    staticReport(VESSELS.dark.mmsi, minutes(start, 0), VESSELS.dark),
    staticReport(VESSELS.loiterer.mmsi, minutes(start, 0), VESSELS.loiterer),
    classBName(VESSELS.passer.mmsi, minutes(start, 0), VESSELS.passer.name),
  ];
  // 12 knots = 370 m a minute, heading east from west of the strait, 10 km south of the cable.
  let dark = { lat: 51.0, lon: 1.2 };
  for (let m = 0; m <= 100; m += 2) {
    if (m <= 40 || m >= 80)
      reports.push(positionReport(VESSELS.dark.mmsi, minutes(start, m), { ...dark, sog: 12, cog: 90 }));
    dark = move(dark, 90, 2 * 370);
  }
  for (let m = 0; m <= 60; m += 3) {
    const p = move(ON_CABLE, (m * 37) % 360, 60 + ((m * 7) % 90));
    reports.push(
      positionReport(VESSELS.loiterer.mmsi, minutes(start, m), { ...p, sog: 0.3, cog: (m * 37) % 360, navstatus: 1 }),
    );
  }
  let passer = { lat: 51.45, lon: 1.3 };
  for (let m = 0; m <= 60; m += 3) {
    reports.push(positionReport(VESSELS.passer.mmsi, minutes(start, m), { ...passer, sog: 10, cog: 45 }));
    passer = move(passer, 45, 3 * 309);
  }
  return reports.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** A new environment with an AIS receiver in it: the sensor's id, for `ais.position` events. */
export async function aisReceiver(token: string, location = { lat: 51.14, lon: 1.37 }): Promise<string> {
  const env = await call<{ environment_id: string }>('POST', '/api/v1/environments', {
    token,
    body: { name: 'Harbour', type: 'port' },
  });
  expect(env.status, env.text).toBe(201);
  const sensor = await call<{ sensor_id: string }>('POST', '/api/v1/sensors', {
    token,
    body: { environment_id: env.body.environment_id, name: 'AIS receiver', type: 'ais_receiver', location },
  });
  expect(sensor.status, sensor.text).toBe(201);
  return sensor.body.sensor_id;
}
