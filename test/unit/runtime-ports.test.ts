/**
 * The runtime's ports (shared/runtime-ports.ts) as a bundle sees them: a second copy of an adapter
 * module (what each bundle carries; here a fresh module graph after `vi.resetModules`) finds the
 * stand-in the first copy was given, and the errors a port's contract names are recognised across
 * copies.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Mailer } from '../../shared/adapters/mailer.js';

afterEach(async () => {
  const { setPort } = await import('../../shared/runtime-ports.js');
  setPort('mailer', undefined);
  setPort('handlers', undefined);
});

describe('runtime ports', () => {
  it('a stand-in given to one copy of an adapter is the one every copy uses', async () => {
    const first = await import('../../shared/adapters/mailer.js');
    const sent: string[] = [];
    const fake: Mailer = {
      send: (mail) => {
        sent.push(mail.subject);
        return Promise.resolve({ messageId: 'local-1' });
      },
    };
    first.useMailer(fake);
    vi.resetModules();
    const second = await import('../../shared/adapters/mailer.js');
    expect(second).not.toBe(first);
    expect(second.mailer()).toBe(fake);
    expect(second.emailConfigured()).toBe(true);
    await second.mailer().send({ to: ['ops@harbour.example'], subject: 'Gate 4', text: 'open' });
    expect(sent).toEqual(['Gate 4']);
  });

  it('without a stand-in, an adapter builds its AWS client (and says what is missing)', async () => {
    vi.resetModules();
    const { mailer } = await import('../../shared/adapters/mailer.js');
    expect(() => mailer()).toThrow(/EMAIL_FROM/);
  });

  it("a stand-in's error is recognised by another copy's class, and no other error is", async () => {
    const first = await import('../../shared/adapters/lake/types.js');
    vi.resetModules();
    const second = await import('../../shared/adapters/lake/types.js');
    expect(second.LakeSqlError).not.toBe(first.LakeSqlError);
    expect(new first.LakeSqlError('syntax error')).toBeInstanceOf(second.LakeSqlError);
    expect(new Error('syntax error')).not.toBeInstanceOf(second.LakeSqlError);
    const speechA = await import('../../shared/adapters/speech/types.js');
    expect(new speechA.SpeechUnavailableError('no sox')).not.toBeInstanceOf(speechA.TranscriptionFailedError);
  });

  it('health says which handlers the local runtime serves, and nothing in AWS', async () => {
    const { portOf, setPort } = await import('../../shared/runtime-ports.js');
    expect(portOf('handlers')).toBeUndefined();
    setPort('handlers', 'bundles');
    vi.resetModules();
    const { portOf: again } = await import('../../shared/runtime-ports.js');
    expect(again('handlers')).toBe('bundles');
  });
});
