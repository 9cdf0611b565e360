/**
 * The mail the local runtime sent: every message its SMTP server received is an `.eml` file in
 * LOCAL_MAIL_DIR (shared/local/smtp.ts), read here as a mail program would, with mailparser.
 * Sending follows the incident's change through the table stream and the bus, so readers wait.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { inject } from 'vitest';
import { CONFIRMATION_LINK } from '../../bin/local-mail.js';
import { pipelineDeadline } from './pipeline.js';

export interface ReceivedMail {
  file: string;
  to: string[];
  subject: string;
  text: string;
}

/**
 * Parsed messages by path, for the worker's life: fresh-file.ts drops only the `gatehouse.`
 * globals, and a message never changes once in place (shared/local/smtp.ts renames it in whole).
 * Kept per module, each test file's first look parsed every message of the run again: a thousand
 * by the end, about 0.3 ms of CPU each.
 */
const PARSED = Symbol.for('test.mail.parsed');
const kept = globalThis as Record<symbol, Map<string, ReceivedMail> | undefined>;
const parsed: Map<string, ReceivedMail> = (kept[PARSED] ??= new Map<string, ReceivedMail>());

async function read(dir: string, file: string): Promise<ReceivedMail> {
  const path = join(dir, file);
  let mail = parsed.get(path);
  if (!mail) {
    const m: ParsedMail = await simpleParser(readFileSync(path));
    const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) =>
      a.value.map((v) => (v.address ?? '').toLowerCase()),
    );
    mail = { file, to, subject: m.subject ?? '', text: m.text ?? '' };
    parsed.set(path, mail);
  }
  return mail;
}

/** Every message in the mail folder now that `matches`. */
export async function mailNow(matches: (m: ReceivedMail) => boolean): Promise<ReceivedMail[]> {
  const dir = inject('localEnv').LOCAL_MAIL_DIR;
  if (!dir) throw new Error('the test stack names no LOCAL_MAIL_DIR');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
    : [];
  return (await Promise.all(files.map((f) => read(dir, f)))).filter(matches);
}

/** The messages that `match`, once there are `count` of them (PIPELINE_WAIT_MS at most). */
export async function waitForMail(matches: (m: ReceivedMail) => boolean, count = 1): Promise<ReceivedMail[]> {
  const deadline = pipelineDeadline();
  for (;;) {
    const found = await mailNow(matches);
    if (found.length >= count) return found;
    if (Date.now() > deadline)
      throw new Error(`${found.length} matching message(s) in the local mail folder, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The acknowledgement link in a message's text. */
export function ackLinkIn(text: string): string {
  const link = /https?:\/\/\S+\/api\/v1\/incidents\/[0-9a-f-]+\/acknowledge\?token=[A-Za-z0-9_-]+/.exec(text)?.[0];
  if (!link) throw new Error(`no acknowledgement link in:\n${text}`);
  return link;
}

/** The registration's confirmation link in a message's text. */
export function confirmationLinkIn(text: string): string {
  const link = CONFIRMATION_LINK.exec(text)?.[0];
  if (!link) throw new Error(`no confirmation link in:\n${text}`);
  return link;
}

/** The latest confirmation link mailed to `email`. */
export async function confirmationLinkFor(email: string): Promise<string> {
  const to = email.toLowerCase();
  const mails = await waitForMail((m) => m.to.includes(to) && /confirm your gatehouse registration/i.test(m.subject));
  return confirmationLinkIn(mails[mails.length - 1]!.text);
}
