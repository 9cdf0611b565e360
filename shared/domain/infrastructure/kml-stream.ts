/**
 * KML read as a stream, for documents too large for a DOM (the worker's extraction of large
 * uploads, presigned.ts): saxes reads the text chunk by chunk, counting bytes, placemarks and
 * vertices as it goes and stopping at the first limit passed. Each Placemark, GroundOverlay and
 * NetworkLink is written back as XML text, and a few hundred at a time are converted by
 * @tmcw/togeojson in a small document that carries the root element and the shared styles and
 * schemas read so far: the features are those of the whole document converted at once (kml.ts),
 * in the same order, while the memory held is the features and one small batch, never a DOM of
 * the whole. Between batches the event loop turns, so a server running this stays responsive.
 */
import type { Feature, Geometry } from 'geojson';
import { GeoFileError } from './geo-file-error.js';
import { xmlParser } from './kml.js';
import { ReadLimitError, yieldToEventLoop, type ReadLimits } from './read-limits.js';
import { textEncodingOf } from './text.js';

/** What was counted. */
export interface KmlStreamCounts {
  bytes: number;
  placemarks: number;
  vertices: number;
}

/** The elements that become features, in the order togeojson's `kml()` lists them. */
const FEATURE_ELEMENTS = ['Placemark', 'GroundOverlay', 'NetworkLink'] as const;
type FeatureElement = (typeof FEATURE_ELEMENTS)[number];
/** Shared definitions a feature may refer to (`styleUrl`, `SimpleData` of a schema). */
const SHARED_ELEMENTS = new Set(['Style', 'StyleMap', 'Schema']);
/** Elements whose text holds coordinate tuples, separated by white space. */
const COORDINATE_ELEMENTS = new Set(['coordinates', 'gx:coord']);

/** Features converted together: small enough that each batch's DOM stays a few megabytes. */
const BATCH_FEATURES = 200;
const BATCH_CHARS = 128 * 1024;
/** Shared styles and schemas kept for the batches (each batch carries them all). */
const MAX_SHARED_CHARS = 256 * 1024;
/** What text.ts reads for the encoding. */
const HEAD_BYTES = 256;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

function startTag(name: string, attributes: Record<string, string>, selfClosing: boolean): string {
  let out = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) out += ` ${key}="${escapeAttr(value)}"`;
  return out + (selfClosing ? '/>' : '>');
}

/** Counts the white-space separated tuples of a coordinates text. */
function tupleCount(text: string): number {
  let count = 0;
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 9 || c === 10 || c === 13;
    if (!space && !inToken) count++;
    inToken = !space;
  }
  return count;
}

/**
 * The features of a KML document read from `chunks` (its bytes, decoded as its first chunk says:
 * text.ts). `label` names the document in messages. Throws GeoFileError for text that is not KML,
 * and ReadLimitError past a limit.
 */
export async function streamKmlFeatures(
  chunks: AsyncIterable<Uint8Array>,
  limits: ReadLimits,
  label: string,
): Promise<{ features: Feature<Geometry | null>[]; counts: KmlStreamCounts }> {
  const { SaxesParser } = await import('saxes');
  const parseXml = await xmlParser();
  const { kml } = await import('@tmcw/togeojson');
  const parser = new SaxesParser({ xmlns: false, position: false });
  const counts: KmlStreamCounts = { bytes: 0, placemarks: 0, vertices: 0 };
  const converted: Record<FeatureElement, Feature<Geometry | null>[]> = {
    Placemark: [],
    GroundOverlay: [],
    NetworkLink: [],
  };
  const pending: Record<FeatureElement, string[]> = { Placemark: [], GroundOverlay: [], NetworkLink: [] };
  let pendingChars = 0;
  let rootTag: string | null = null;
  let shared = '';
  /** The element being written back (a feature or a shared definition), and how deep inside it we are. */
  let capture: { kind: FeatureElement | 'shared'; parts: string[]; depth: number } | null = null;
  let coordinateText: string | null = null;
  // Set by the parser's handlers; declared so that the checks after a write see it may be set.
  let failure = null as Error | null;

  const convert = () => {
    if (!rootTag) return;
    for (const kind of FEATURE_ELEMENTS) {
      if (pending[kind].length === 0) continue;
      const text = `${rootTag}<Document>${shared}${pending[kind].join('')}</Document></kml>`;
      pending[kind] = [];
      const doc = parseXml(text);
      converted[kind].push(...kml(doc).features);
    }
    pendingChars = 0;
  };

  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    if (rootTag === null) {
      if (tag.name !== 'kml') {
        failure ??= new GeoFileError(
          'unreadable_file',
          `${label} is not a KML document (its root element is <${tag.name}>)`,
        );
        return;
      }
      rootTag = startTag(tag.name, attributes, false);
      return;
    }
    if (!capture) {
      if ((FEATURE_ELEMENTS as readonly string[]).includes(tag.name)) {
        counts.placemarks++;
        if (counts.placemarks > limits.maxFeatures) {
          failure = new ReadLimitError(
            `${label} holds more than ${limits.maxFeatures} placemarks; at most ${limits.maxFeatures} are read`,
          );
          return;
        }
        capture = { kind: tag.name as FeatureElement, parts: [], depth: 0 };
      } else if (SHARED_ELEMENTS.has(tag.name) && shared.length < MAX_SHARED_CHARS) {
        capture = { kind: 'shared', parts: [], depth: 0 };
      } else return;
    }
    capture.depth++;
    capture.parts.push(startTag(tag.name, attributes, tag.isSelfClosing));
    if (COORDINATE_ELEMENTS.has(tag.name) && !tag.isSelfClosing) coordinateText = '';
    if (tag.isSelfClosing) closeElement();
  });

  const closeElement = () => {
    if (!capture) return;
    capture.depth--;
    if (capture.depth > 0) return;
    const text = capture.parts.join('');
    if (capture.kind === 'shared') shared += text;
    else {
      pending[capture.kind].push(text);
      pendingChars += text.length;
    }
    capture = null;
  };

  parser.on('closetag', (tag) => {
    if (!capture) return;
    if (!tag.isSelfClosing) capture.parts.push(`</${tag.name}>`);
    if (coordinateText !== null && COORDINATE_ELEMENTS.has(tag.name)) {
      counts.vertices += tupleCount(coordinateText);
      coordinateText = null;
      if (counts.vertices > limits.maxVertices) {
        failure = new ReadLimitError(
          `${label} holds more than ${limits.maxVertices} coordinates; at most ${limits.maxVertices} are read`,
        );
      }
    }
    if (!tag.isSelfClosing) closeElement();
  });

  const onText = (text: string) => {
    if (!capture) return;
    capture.parts.push(escapeText(text));
    if (coordinateText !== null) coordinateText += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('error', (err) => {
    failure ??= new GeoFileError('unreadable_file', `${label} does not parse as XML (${err.message})`);
  });

  let decoder: InstanceType<typeof TextDecoder> | null = null;
  const feed = (text: string) => {
    parser.write(text);
    if (failure) throw failure;
  };
  try {
    // The first bytes say the encoding (a byte order mark, an XML declaration): held until there are enough.
    let head: Buffer | null = Buffer.alloc(0);
    for await (const chunk of chunks) {
      counts.bytes += chunk.length;
      if (counts.bytes > limits.maxBytes) {
        throw new ReadLimitError(`${label} is larger than ${limits.maxBytes} bytes; at most that much KML is read`);
      }
      let bytes: Uint8Array = chunk;
      if (head) {
        head = Buffer.concat([head, chunk]);
        if (head.length < HEAD_BYTES) continue;
        bytes = head;
        head = null;
      }
      decoder ??= new TextDecoder(textEncodingOf(bytes));
      feed(decoder.decode(bytes, { stream: true }));
      if (pendingChars >= BATCH_CHARS || pending.Placemark.length >= BATCH_FEATURES) {
        convert();
        await yieldToEventLoop();
      }
    }
    if (head) decoder = new TextDecoder(textEncodingOf(head));
    if (decoder) feed(decoder.decode(head ?? undefined));
    parser.close();
    if (failure) throw failure;
  } catch (err) {
    if (err instanceof GeoFileError) throw err;
    throw new GeoFileError('unreadable_file', `${label} does not parse as XML (${(err as Error).message})`);
  }
  if (rootTag === null) throw new GeoFileError('unreadable_file', `${label} is not a KML document (it is empty)`);
  convert();
  return { features: FEATURE_ELEMENTS.flatMap((kind) => converted[kind]), counts };
}
