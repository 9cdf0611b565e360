/**
 * What a request extracts itself, by format. Past it a file is refused by the multipart upload
 * (413 naming upload-url) and handed to the background extraction by the extract of the presigned
 * flow (presigned.ts, background.ts). Measured on the 2-core build machine while other work ran on
 * it (docs/benchmarks.md, bin/bench-extract.ts), at the bounds, in the costliest case of each:
 * - KML: 4 MiB of points (44,000 placemarks) in about 9 s and 450 MB; its DOM takes about 100
 *   times the text and togeojson walks it placemark by placemark (20 MiB: 30 s and 1.7 GB).
 * - GeoJSON: 8 MiB in at most 4.5 s and 230 MB (short lines, whose index is built too; points and
 *   the USGS sample 1.3-3 s); 16 MiB took 9 s and 460 MB, 48 MiB 22 s and 870 MB: too near a
 *   request's 29 s and the function's 1 GB (a 1 GB Lambda has about half a core of this machine).
 * - Shapefiles, read record by record (shapefile.ts): 8 MiB of .shp and .dbf, or 50,000 records,
 *   whichever comes first, in at most 2 s and 290 MB (500,000 vertices of lines; 29,000 points
 *   with a text attribute 1 s; 49,000 with a number 0.6 s; 2,100 USGS records of 26 attributes,
 *   3.8 KB each in the .dbf, 1.8 s). Bytes alone would let 200,000 small points through, records
 *   alone millions of vertices. Counted while the archive is unpacked and read: a 4 MB zip can hold
 *   a hundred megabytes of them.
 * A KMZ's or zipped shapefile's content is counted while it is unpacked and the read stops at the
 * bound; a KML or GeoJSON's text is its size.
 */
import {
  MAX_SYNC_GEOJSON_BYTES,
  MAX_SYNC_KML_BYTES,
  MAX_SYNC_SHAPEFILE_BYTES,
  MAX_SYNC_SHAPEFILE_RECORDS,
} from '../../schemas/infrastructure.js';

export { MAX_SYNC_GEOJSON_BYTES, MAX_SYNC_KML_BYTES, MAX_SYNC_SHAPEFILE_BYTES, MAX_SYNC_SHAPEFILE_RECORDS };

/** What the budget counts, and how the messages say it. */
const COUNTED = {
  kml: { limit: MAX_SYNC_KML_BYTES, says: 'is more than', of: 'bytes of KML' },
  geojson: { limit: MAX_SYNC_GEOJSON_BYTES, says: 'is more than', of: 'bytes of GeoJSON' },
  shapefile: {
    limit: MAX_SYNC_SHAPEFILE_BYTES,
    says: 'is more than',
    of: 'bytes of shapefile data (.shp and .dbf, unpacked)',
  },
  shapefileRecords: { limit: MAX_SYNC_SHAPEFILE_RECORDS, says: 'holds more than', of: 'records' },
} as const;

export type Budgeted = keyof typeof COUNTED;

/** Content past what a request extracts: for the background extraction. */
export class BeyondRequestBudget extends Error {
  constructor(
    readonly what: string,
    readonly counted: Budgeted,
  ) {
    const { limit, says, of } = COUNTED[counted];
    super(`${what} ${says} ${limit} ${of}, more than a request extracts`);
    this.name = 'BeyondRequestBudget';
  }
}

/** The most of `counted` a request extracts. */
export const requestBudget = (counted: Budgeted): number => COUNTED[counted].limit;

/** Throws BeyondRequestBudget when `amount` of `counted` is past what a request extracts. */
export function assertWithinRequestBudget(counted: Budgeted, amount: number, what: string): void {
  if (amount > COUNTED[counted].limit) throw new BeyondRequestBudget(what, counted);
}
