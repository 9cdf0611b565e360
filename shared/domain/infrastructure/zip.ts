/**
 * Reading archives (KMZ, zipped shapefiles) with jszip, with a budget on what they unpack to:
 * a few megabytes of zip can inflate to gigabytes, and the function has a fixed memory.
 */
import { PassThrough } from 'node:stream';
import type JSZip from 'jszip';
import { PayloadTooLargeError } from '../../errors.js';
import { GeoFileError } from './geo-file-error.js';

/** Most bytes the entries read out of one archive may add up to. */
export const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;

/** The first bytes of a zip: a local file header, or the end record of an empty archive. */
export function looksLikeZip(data: Uint8Array): boolean {
  return (
    data.length >= 4 &&
    data[0] === 0x50 &&
    data[1] === 0x4b &&
    ((data[2] === 3 && data[3] === 4) || (data[2] === 5 && data[3] === 6))
  );
}

export interface Archive {
  /** Regular files, without folders and macOS resource forks (`__MACOSX/`, `._name`). */
  entries: JSZip.JSZipObject[];
  /**
   * Reads one entry, counting it against the archive's budget; past `limit.bytes` of this entry
   * it stops unpacking and fails with `limit.error()`.
   */
  read(entry: JSZip.JSZipObject, limit?: EntryLimit): Promise<Buffer>;
  /** The entry's bytes as they are unpacked, counted against the archive's budget. */
  stream(entry: JSZip.JSZipObject): AsyncIterable<Buffer>;
}

export interface EntryLimit {
  bytes: number;
  error: () => Error;
}

/** Opens a zip; `unreadable` says what the file was supposed to be, for the message. */
export async function openArchive(data: Uint8Array, unreadable: string): Promise<Archive> {
  // Loaded when a file turns out to be a zip (KMZ, shapefile): nothing else needs it.
  const { default: Zip } = await import('jszip');
  let zip: JSZip;
  try {
    zip = await Zip.loadAsync(data);
  } catch (err) {
    throw new GeoFileError(
      'unreadable_file',
      `${unreadable}: the zip archive cannot be read (${(err as Error).message})`,
    );
  }
  const entries = Object.values(zip.files).filter((e) => !e.dir && !isResourceFork(e.name));
  let unpacked = 0;
  const unpackError = (entry: JSZip.JSZipObject, err: Error) =>
    new GeoFileError(
      'unreadable_file',
      `${unreadable}: ${entry.name} in the zip archive cannot be unpacked (${err.message})`,
    );
  const tooLarge = () => new PayloadTooLargeError(`The archive unpacks to more than ${MAX_UNPACKED_BYTES} bytes`);
  const read = (entry: JSZip.JSZipObject, limit?: EntryLimit) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let own = 0;
      const stream = entry.nodeStream('nodebuffer');
      stream.on('data', (chunk: Buffer) => {
        unpacked += chunk.length;
        own += chunk.length;
        const refusal = unpacked > MAX_UNPACKED_BYTES ? tooLarge() : limit && own > limit.bytes ? limit.error() : null;
        if (refusal) {
          (stream as unknown as { pause(): void }).pause();
          reject(refusal);
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (err: Error) => reject(unpackError(entry, err)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  async function* stream(entry: JSZip.JSZipObject): AsyncIterable<Buffer> {
    // Node's own stream, which iterates with backpressure: jszip's is an older implementation.
    const out = new PassThrough();
    const source = entry.nodeStream('nodebuffer');
    source.on('error', (err: Error) => out.destroy(unpackError(entry, err)));
    source.pipe(out);
    for await (const chunk of out as AsyncIterable<Buffer>) {
      unpacked += chunk.length;
      if (unpacked > MAX_UNPACKED_BYTES) {
        (source as unknown as { pause(): void }).pause();
        out.destroy();
        throw tooLarge();
      }
      yield chunk;
    }
  }
  return { entries, read, stream };
}

function isResourceFork(name: string): boolean {
  return name.startsWith('__MACOSX/') || /(^|\/)\._/.test(name);
}

/** The entries whose names end in `extension` (lower case, with the dot), shortest path first. */
export function entriesEnding(archive: Archive, extension: string): JSZip.JSZipObject[] {
  return archive.entries
    .filter((e) => e.name.toLowerCase().endsWith(extension))
    .sort((a, b) => a.name.split('/').length - b.name.split('/').length || a.name.localeCompare(b.name));
}
