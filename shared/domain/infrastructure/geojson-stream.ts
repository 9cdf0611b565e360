/**
 * GeoJSON read as a stream, for files too large for a request (the background extraction,
 * background.ts): @streamparser/json tokenizes the bytes chunk by chunk and assembles each member
 * of a FeatureCollection's `features` on its own; each is checked as geojson.ts checks it, kept,
 * and dropped from the parser's tree, so the memory held is the features kept and the one being
 * read, never the text or a tree of the whole. Counted from the tokens, while reading, before a
 * feature is complete: bytes, features, coordinate tuples (arrays of numbers under a
 * `coordinates` key) and the nesting depth (MAX_JSON_DEPTH, as the request's parse, detect.ts);
 * the first limit passed stops the read. The features are those the request's parse gives
 * (geojson.ts), in the same order. Between chunks the event loop turns.
 */
import type { Feature, Geometry } from 'geojson';
import { MAX_JSON_DEPTH } from '../../json-depth.js';
import { formatMismatch, NOT_GEOJSON, unreadable } from './detect.js';
import { GeoFileError } from './geo-file-error.js';
import { geojsonFeature, geojsonFeatures, isGeoJson, NO_FEATURES_ARRAY } from './geojson.js';
import { ReadLimitError, yieldToEventLoop, type ReadLimits } from './read-limits.js';
import { textEncodingOf } from './text.js';

/** What was counted. */
export interface GeojsonStreamCounts {
  bytes: number;
  features: number;
  vertices: number;
}

/** The members of a Feature or bare Geometry at the top level (a FeatureCollection's features come one by one). */
const ROOT_MEMBERS = ['type', 'geometry', 'properties', 'id', 'bbox', 'coordinates', 'geometries'];

/**
 * The features of a GeoJSON text read from `chunks` (UTF-8, or UTF-16 with its byte order mark).
 * `filename` names the file in messages. Throws GeoFileError for text that is not GeoJSON, and
 * ReadLimitError past a limit.
 */
export async function streamGeojsonFeatures(
  chunks: AsyncIterable<Uint8Array>,
  limits: ReadLimits,
  filename: string,
): Promise<{ features: Feature<Geometry | null>[]; counts: GeojsonStreamCounts }> {
  const { Tokenizer, TokenParser, TokenType } = await import('@streamparser/json');
  const counts: GeojsonStreamCounts = { bytes: 0, features: 0, vertices: 0 };
  const tokenizer = new Tokenizer();
  // Emitted values are dropped from the tree (keepStack: false): the features array stays empty.
  const parser = new TokenParser({
    paths: ['$.features.*', ...ROOT_MEMBERS.map((m) => `$.${m}`)],
    keepStack: false,
  });

  const root: Record<string, unknown> = {};
  let rootIsObject: boolean | null = null;
  let featuresArray = false;
  /** Features read before the top level's `type` said it is a FeatureCollection: checked once it has. */
  let unchecked: unknown[] = [];
  const features: Feature<Geometry | null>[] = [];

  const keep = (raw: unknown, index: number) => features.push(geojsonFeature(raw, `GeoJSON feature ${index}`));

  parser.onValue = ({ value, key, parent, stack }) => {
    if (stack.length === 1) {
      root[key as string] = value;
      if (key === 'type' && value === 'FeatureCollection') {
        unchecked.forEach((raw, i) => keep(raw, i));
        unchecked = [];
      }
      return;
    }
    // A member of `features`.
    if (!Array.isArray(parent)) throw new GeoFileError('unreadable_file', NO_FEATURES_ARRAY);
    const index = counts.features++;
    if (counts.features > limits.maxFeatures) {
      throw new ReadLimitError(
        `The GeoJSON holds more than ${limits.maxFeatures} features; at most ${limits.maxFeatures} are read`,
      );
    }
    if (root.type === 'FeatureCollection') keep(value, index);
    else if (root.type === undefined) unchecked.push(value);
  };

  // Counted from the tokens, before the parser assembles them.
  let depth = 0;
  /** The depth of the `coordinates` array being read, 0 outside one. */
  let coordinatesDepth = 0;
  let lastString: unknown = null;
  let afterColon = false;
  let afterOpenBracket = false;
  tokenizer.onToken = (info) => {
    const { token } = info;
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      depth++;
      rootIsObject ??= token === TokenType.LEFT_BRACE;
      if (depth > MAX_JSON_DEPTH) throw tooDeep();
      if (token === TokenType.LEFT_BRACKET && afterColon) {
        if (coordinatesDepth === 0 && lastString === 'coordinates') coordinatesDepth = depth;
        if (depth === 2 && lastString === 'features') featuresArray = true;
      }
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      if (depth === coordinatesDepth) coordinatesDepth = 0;
      depth--;
    } else if (token === TokenType.NUMBER && afterOpenBracket && coordinatesDepth > 0) {
      // An array that starts with a number, inside coordinates: a position.
      if (++counts.vertices > limits.maxVertices) {
        throw new ReadLimitError(
          `The GeoJSON holds more than ${limits.maxVertices} coordinates; at most ${limits.maxVertices} are read`,
        );
      }
    } else if (token === TokenType.STRING) lastString = info.value;
    rootIsObject ??= false;
    afterColon = token === TokenType.COLON;
    afterOpenBracket = token === TokenType.LEFT_BRACKET;
    parser.write(info);
  };

  try {
    let decoder: InstanceType<typeof TextDecoder> | null | undefined;
    for await (const chunk of chunks) {
      counts.bytes += chunk.length;
      if (counts.bytes > limits.maxBytes) {
        throw new ReadLimitError(`The GeoJSON is larger than ${limits.maxBytes} bytes; at most that much is read`);
      }
      // UTF-8 as RFC 8259 says (the tokenizer drops its byte order mark); UTF-16 decoded first.
      if (decoder === undefined) {
        const encoding = textEncodingOf(chunk);
        decoder = encoding.startsWith('utf-16') ? new TextDecoder(encoding) : null;
      }
      tokenizer.write(decoder ? decoder.decode(chunk, { stream: true }) : chunk);
      await yieldToEventLoop();
    }
    if (decoder) tokenizer.write(decoder.decode());
    tokenizer.end();
    // The parser ends itself with the top-level value; not ended, the text stopped inside it.
    if (!parser.isEnded) parser.end();
  } catch (err) {
    if (err instanceof GeoFileError) throw err;
    throw unreadable('GeoJSON', `the JSON does not parse (${(err as Error).message})`);
  }
  if (!rootIsObject || !isGeoJson(root)) throw formatMismatch(filename, 'geojson', NOT_GEOJSON);
  if (root.type === 'FeatureCollection') {
    if (!featuresArray) throw new GeoFileError('unreadable_file', NO_FEATURES_ARRAY);
    return { features, counts };
  }
  // A Feature or a bare geometry: one feature, read whole (its coordinates counted all the same).
  return { features: geojsonFeatures(root), counts };
}

const tooDeep = () => unreadable('GeoJSON', `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
