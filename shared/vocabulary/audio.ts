/** Recordings a voice report may carry. */

/** The containers Transcribe accepts and the voice route takes (sox reads them all locally). */
export const AUDIO_FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'm4a'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** The content type a recording of each format is stored with. */
export const AUDIO_CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
};
