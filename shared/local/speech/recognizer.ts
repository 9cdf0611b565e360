/**
 * The offline recogniser: sox turns the recording into what pocketsphinx 0.8 wants (16 kHz mono
 * 16-bit WAV), then `pocketsphinx_continuous -infile` recognises it against a grammar of security
 * words (grammar.ts says why a grammar). Debian packages: sox, pocketsphinx, pocketsphinx-en-us.
 * Everything happens in a temp dir that is removed afterwards, whatever happens.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { securityGrammar } from './grammar.js';
import { findOnPath, ProcessTimeoutError, run } from './processes.js';
import {
  assertTenantAudioKey,
  SpeechBusyError,
  SpeechUnavailableError,
  TranscriptionFailedError,
  type AudioFormat,
  type SpeechRecognizer,
  type TranscribeInput,
  type TranscribeResult,
  UNSURE_BELOW,
} from '../../adapters/speech/types.js';

export interface LocalSpeechOptions {
  /** Reads a stored recording when the caller passes no bytes; default: the files bucket. */
  loadAudio?: (key: string) => Promise<Buffer | null>;
  /** `grammar` (default) or pocketsphinx's general language model (`language-model`). */
  vocabulary?: 'grammar' | 'language-model';
  /** PATH to look for the binaries on (tests point it at nowhere). */
  path?: string;
  /** Where each recognition makes (and removes) its temp dir; default: the system's temp dir. */
  workDir?: string;
}

const BINARIES = ['sox', 'pocketsphinx_continuous'] as const;
/** sox reads these itself; Debian's sox has no M4A (AAC) reader, ffmpeg does. */
const SOX_TYPES: Record<Exclude<AudioFormat, 'm4a'>, string> = { wav: 'wav', mp3: 'mp3', ogg: 'ogg', flac: 'flac' };

async function storedAudio(key: string): Promise<Buffer | null> {
  // Imported on first use: the recogniser itself needs no bucket configuration.
  const { getObjectBytes } = await import('../../adapters/s3.js');
  return getObjectBytes(key);
}

/** One recognised word of `pocketsphinx_continuous -time yes`: `word start end posterior`. */
interface Segment {
  word: string;
  start: number;
  end: number;
  posterior: number;
}

/** The words of `-time yes` output, in order: no silences, fillers or sentence marks; `four(2)` is `four`. */
export function segmentsOf(stdout: string): Segment[] {
  const words: Segment[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) (\d+\.\d+) (\d+\.\d+) (\d+\.\d+)$/.exec(line.trim());
    if (!m || /^[<[(+]/.test(m[1]!)) continue;
    words.push({
      word: m[1]!.replace(/\(\d+\)$/, '').toLowerCase(),
      start: Number(m[2]),
      end: Number(m[3]),
      posterior: Number(m[4]),
    });
  }
  return words;
}

const textOf = (words: Segment[]) => words.map((w) => w.word).join(' ');
const unique = (words: string[]) => [...new Set(words)];

export class LocalSpeechRecognizer implements SpeechRecognizer {
  private readonly loadAudio: (key: string) => Promise<Buffer | null>;
  private readonly vocabulary: 'grammar' | 'language-model';
  private readonly path: string | undefined;
  private readonly workDir: string;

  constructor(options: LocalSpeechOptions = {}) {
    this.loadAudio = options.loadAudio ?? storedAudio;
    this.vocabulary = options.vocabulary ?? 'grammar';
    this.path = options.path;
    this.workDir = options.workDir ?? tmpdir();
  }

  /** The binaries' paths; SpeechUnavailableError naming what is missing and how to get it. */
  binaries(format: AudioFormat): { sox: string; pocketsphinx: string; ffmpeg?: string } {
    const found = Object.fromEntries(BINARIES.map((b) => [b, findOnPath(b, this.path)]));
    const missing = BINARIES.filter((b) => !found[b]);
    if (missing.length > 0) {
      throw new SpeechUnavailableError(
        `offline speech recognition is not installed (${missing.join(', ')} missing): ` +
          'apt-get install -y sox pocketsphinx pocketsphinx-en-us, or send a transcript made on the device',
      );
    }
    const result = { sox: found.sox!, pocketsphinx: found.pocketsphinx_continuous! };
    if (format !== 'm4a') return result;
    const ffmpeg = findOnPath('ffmpeg', this.path);
    if (!ffmpeg)
      throw new SpeechUnavailableError(
        'M4A recordings need ffmpeg for offline recognition; send WAV, MP3, OGG or FLAC',
      );
    return { ...result, ffmpeg };
  }

  async transcribe(input: TranscribeInput): Promise<TranscribeResult> {
    assertTenantAudioKey(input.tenantId, input.audioKey);
    const bins = this.binaries(input.format);
    const deadline = Date.now() + input.budgetMs;
    const left = () => {
      const ms = deadline - Date.now();
      if (ms <= 0)
        throw new SpeechBusyError(`offline recognition did not finish within its budget of ${input.budgetMs} ms`);
      return ms;
    };
    const audio = input.audio ?? (await this.loadAudio(input.audioKey));
    if (!audio || audio.length === 0) throw new TranscriptionFailedError(`no recording at ${input.audioKey}`);

    const dir = await mkdtemp(join(this.workDir, 'gatehouse-speech-'));
    try {
      const source = join(dir, `input.${input.format}`);
      const wav = join(dir, 'speech.wav');
      await writeFile(source, audio);
      const pcm = ['-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', wav];
      if (bins.ffmpeg) {
        await run(
          bins.ffmpeg,
          ['-nostdin', '-loglevel', 'error', '-i', source, '-ar', '16000', '-ac', '1', '-sample_fmt', 's16', wav],
          left(),
        );
      } else {
        await run(bins.sox, ['-t', SOX_TYPES[input.format as Exclude<AudioFormat, 'm4a'>], source, ...pcm], left());
      }
      // Word by word, with times (and, for the language model, posteriors).
      const args = ['-infile', wav, '-logfn', '/dev/null', '-time', 'yes'];
      if (this.vocabulary === 'language-model') {
        const words = segmentsOf(await run(bins.pocketsphinx, args, left()));
        return {
          status: 'completed',
          transcript: textOf(words),
          unsureWords: unique(words.filter((w) => w.posterior < UNSURE_BELOW).map((w) => w.word)),
        };
      }
      const grammar = join(dir, 'security.gram');
      await writeFile(grammar, securityGrammar());
      // The grammar pass hears security words well but is sure of whatever it picks; the open
      // language model hears freely and scores each word. A grammar word the open pass did not
      // also hear at that moment is unsure. The two run side by side.
      // The time left is read once: read again for the second pass, it could throw with the first
      // already started, whose rejection then nobody would await.
      const budget = left();
      const [heard, open] = await Promise.all([
        run(bins.pocketsphinx, [...args, '-jsgf', grammar], budget).then(segmentsOf),
        run(bins.pocketsphinx, args, budget).then(segmentsOf),
      ]);
      const confirmed = (w: Segment) => open.some((o) => o.word === w.word && o.start < w.end && w.start < o.end);
      return {
        status: 'completed',
        transcript: textOf(heard),
        unsureWords: unique(heard.filter((w) => !confirmed(w)).map((w) => w.word)),
      };
    } catch (error) {
      if (error instanceof TranscriptionFailedError || error instanceof SpeechBusyError) throw error;
      // Slowness is the machine's, not the recording's: the caller may try again.
      if (error instanceof ProcessTimeoutError)
        throw new SpeechBusyError(`offline recognition did not finish within its budget of ${input.budgetMs} ms`, {
          cause: error,
        });
      throw new TranscriptionFailedError(
        `offline recognition of ${input.audioKey} failed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
