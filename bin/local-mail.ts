/**
 * The mail a local service sent (`<data dir>/mail/*.eml`, shared/local/smtp.ts), read as a mail
 * program reads it (mailparser: a long link is folded in the raw message). For the scripts that
 * register an organisation as a person does: register, open the link mailed, log in.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

/** The confirmation link of a registration, in a message's text. */
export const CONFIRMATION_LINK = /https?:\/\/\S+\/api\/v1\/portal\/register\/confirm\?token=[A-Za-z0-9_-]+/;

/** The latest confirmation link mailed to `email` in `mailDir`, once there is one (10 s at most). */
export async function confirmationLinkMailed(mailDir: string, email: string): Promise<string> {
  const to = email.toLowerCase();
  const seen = new Set<string>();
  let latest: string | undefined;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const files = existsSync(mailDir)
      ? readdirSync(mailDir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
      : [];
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      const raw = readFileSync(join(mailDir, file));
      // Only the messages to this address are parsed.
      if (!raw.toString('latin1').toLowerCase().includes(to)) continue;
      const link = CONFIRMATION_LINK.exec((await simpleParser(raw)).text ?? '')?.[0];
      if (link) latest = link;
    }
    if (latest) return latest;
    if (Date.now() > deadline) throw new Error(`no confirmation link mailed to ${email} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
