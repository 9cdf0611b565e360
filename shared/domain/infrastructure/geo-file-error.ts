/**
 * Why a file cannot become an infrastructure file. Extraction throws these without knowing the
 * request; the caller turns one into a 422 at the right place (`body.file` for an upload,
 * `path.file_id` for the extraction of a presigned upload).
 */
export type GeoFileProblem =
  /** The name does not end in an extension we take. */
  | 'file_type'
  /** The name promises one format and the content is another (or not that format). */
  | 'format_mismatch'
  /** The content cannot be read as the format its name promises. */
  | 'unreadable_file'
  /** Read fine, but it holds no geometry (or none with coordinates). */
  | 'no_geometries'
  /** Coordinates outside WGS 84 longitude/latitude (e.g. a projected shapefile). */
  | 'coordinate_range'
  /** More bytes, placemarks or coordinates than the extraction reads (counted while reading). */
  | 'too_large';

export class GeoFileError extends Error {
  constructor(
    readonly problem: GeoFileProblem,
    message: string,
  ) {
    super(message);
    this.name = 'GeoFileError';
  }
}
