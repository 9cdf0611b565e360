/**
 * Whether bytes begin as a recording of a format: the container's signature, the first bytes
 * every such file has. A check before anything is stored, so that text or random bytes sent as a
 * recording are refused at once rather than stored and then failed by the recogniser.
 */
import type { AudioFormat } from '../../vocabulary/audio.js';

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  Buffer.from(bytes.subarray(at, at + text.length)).toString('latin1') === text;

/** An MPEG audio frame header: 11 bits of sync, then a version and layer that exist. */
const mpegFrame = (bytes: Uint8Array) =>
  bytes.length >= 2 &&
  bytes[0] === 0xff &&
  (bytes[1]! & 0xe0) === 0xe0 &&
  (bytes[1]! & 0x18) !== 0x08 &&
  (bytes[1]! & 0x06) !== 0;

const SIGNATURES: Record<AudioFormat, (bytes: Uint8Array) => boolean> = {
  wav: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE'),
  flac: (b) => ascii(b, 0, 'fLaC'),
  ogg: (b) => ascii(b, 0, 'OggS'),
  // An ID3 tag first, or straight into the first frame.
  mp3: (b) => ascii(b, 0, 'ID3') || mpegFrame(b),
  // An MP4 container: its first box is `ftyp`.
  m4a: (b) => ascii(b, 4, 'ftyp'),
};

export function startsAsAudio(bytes: Uint8Array, format: AudioFormat): boolean {
  return SIGNATURES[format](bytes);
}
