/**
 * The offline speech path end to end: flite speaks the acceptance sentence, LocalSpeechRecognizer
 * (sox + pocketsphinx with the security grammar) writes it down, LocalExtractor reads the fields.
 * Needs Debian's flite, sox, pocketsphinx and pocketsphinx-en-us (.ci/run installs them): without
 * them this fails, on purpose, rather than skipping the only test of the offline recogniser.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalExtractor } from '../../shared/local/extraction/extractor.js';
import { LocalSpeechRecognizer } from '../../shared/local/speech/recognizer.js';
import { findOnPath } from '../../shared/local/speech/processes.js';
import {
  SpeechBusyError,
  SpeechUnavailableError,
  TranscriptionFailedError,
} from '../../shared/adapters/speech/types.js';

const SENTENCE = 'there is a suspicious person near gate four at the north fence';
const KEYWORDS = ['suspicious', 'person', 'gate', 'north', 'fence'];
const TENANT = '0b6a3c1e-1111-4222-8333-444455556666';
const key = (name: string) => `tenants/${TENANT}/audio/${name}`;

let dir: string;
const speak = (voice: string, text: string, format: 'wav' | 'flac' = 'wav'): Buffer => {
  const wav = join(dir, `${voice}.wav`);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
  if (format === 'wav') return readFileSync(wav);
  const out = join(dir, `${voice}.${format}`);
  execFileSync('sox', [wav, out]);
  return readFileSync(out);
};
const recall = (transcript: string) =>
  KEYWORDS.filter((k) => transcript.split(' ').includes(k)).length / KEYWORDS.length;
// The recogniser's temp dirs go here, apart from those of servers other test files run meanwhile.
const work = mkdtempSync(join(tmpdir(), 'gatehouse-speech-work-'));
const leftovers = () => readdirSync(work);

beforeAll(() => {
  const missing = ['flite', 'sox', 'pocketsphinx_continuous'].filter((b) => !findOnPath(b));
  if (missing.length > 0) {
    throw new Error(
      `offline speech test needs ${missing.join(', ')}: apt-get install -y flite pocketsphinx pocketsphinx-en-us sox (.ci/run does this)`,
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-speech-test-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('LocalSpeechRecognizer', () => {
  const recognizer = new LocalSpeechRecognizer({ loadAudio: async () => null, workDir: work });

  it.each(['slt', 'kal16'])(
    'hears most keywords of the spoken report (flite voice %s), and the extractor reads it',
    async (voice) => {
      const audio = speak(voice, SENTENCE);
      const result = await recognizer.transcribe({
        audioKey: key(`${voice}.wav`),
        audio,
        format: 'wav',
        tenantId: TENANT,
        budgetMs: 15_000,
      });
      if (result.status !== 'completed') throw new Error('the local recogniser never answers pending');
      const r = recall(result.transcript);
      expect(r).toBeGreaterThanOrEqual(0.8); // measured: slt 4/5 (north heard as "near"), kal16 5/5
      expect(leftovers()).toEqual([]); // the temp dir is gone

      // The open second pass heard "suspicious person" too: the words that decide the kind are sure.
      expect(result.unsureWords).not.toContain('suspicious');
      expect(result.unsureWords.every((w) => result.transcript.split(' ').includes(w))).toBe(true);
      const { fields } = await new LocalExtractor().extract(result.transcript, { unsureWords: result.unsureWords });
      expect(fields.type).toBe('suspicious_activity');
      expect(fields.location_text).toMatch(/gate|fence/);
    },
  );

  it('converts other containers with sox first (FLAC)', async () => {
    const result = await recognizer.transcribe({
      audioKey: key('kal16.flac'),
      audio: speak('kal16', SENTENCE, 'flac'),
      format: 'flac',
      tenantId: TENANT,
      budgetMs: 15_000,
    });
    expect(result.status === 'completed' && recall(result.transcript)).toBeGreaterThanOrEqual(0.8);
  });

  it('reads the stored recording when the caller passes no bytes', async () => {
    const audio = speak('kal16', 'smoke at the west door');
    const stored = new LocalSpeechRecognizer({ loadAudio: async (k) => (k === key('stored.wav') ? audio : null) });
    const result = await stored.transcribe({
      audioKey: key('stored.wav'),
      format: 'wav',
      tenantId: TENANT,
      budgetMs: 15_000,
    });
    expect(result.status === 'completed' && result.transcript).toMatch(/smoke/);
    await expect(
      stored.transcribe({ audioKey: key('none.wav'), format: 'wav', tenantId: TENANT, budgetMs: 15_000 }),
    ).rejects.toThrow(TranscriptionFailedError);
  });

  it('gives up at the budget (busy: try again) and fails on audio it cannot read, leaving no temp files', async () => {
    const audio = speak('slt', SENTENCE);
    await expect(
      recognizer.transcribe({ audioKey: key('a.wav'), audio, format: 'wav', tenantId: TENANT, budgetMs: 5 }),
    ).rejects.toThrow(SpeechBusyError);
    await expect(
      recognizer.transcribe({
        audioKey: key('b.wav'),
        audio: Buffer.from('not audio'),
        format: 'wav',
        tenantId: TENANT,
        budgetMs: 15_000,
      }),
    ).rejects.toThrow(/sox/);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a key outside the tenant prefix', async () => {
    await expect(
      recognizer.transcribe({
        audioKey: 'tenants/other/audio/a.wav',
        audio: Buffer.alloc(10),
        format: 'wav',
        tenantId: TENANT,
        budgetMs: 1000,
      }),
    ).rejects.toThrow(/not under/);
  });

  it('says clearly that it is not installed when the binaries are missing', async () => {
    const bare = new LocalSpeechRecognizer({ path: '/nonexistent' });
    const input = {
      audioKey: key('a.wav'),
      audio: Buffer.alloc(10),
      format: 'wav' as const,
      tenantId: TENANT,
      budgetMs: 1000,
    };
    await expect(bare.transcribe(input)).rejects.toThrow(SpeechUnavailableError);
    await expect(bare.transcribe(input)).rejects.toThrow(/sox, pocketsphinx_continuous missing.*apt-get install/);
  });
});
