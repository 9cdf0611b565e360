/**
 * Distance on the Earth's surface, for every layer that needs one (the feeds' parsers, vessels'
 * tracks, hazards near a site): below the domain, so a feed imports downward only.
 */
import turfDistance from '@turf/distance';

/** Metres between two points along the great circle (turf's haversine). */
export const metresBetween = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  turfDistance([a.lon, a.lat], [b.lon, b.lat], { units: 'meters' });
