/**
 * The local runtime's mail: a real SMTP server (the `smtp-server` package) on a free loopback port,
 * inside this process like s3rver, keeping every message it receives as an `.eml` file in
 * `<data dir>/mail/` that a person can open in a mail program; and a mailer that hands messages
 * to it over SMTP with nodemailer, as a mail relay would take them.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { Mail, Mailer } from '../adapters/mailer.js';
import { checkAction } from './iam-check.js';
import type { LocalService } from './process.js';

/** Where the local mail goes from (no one can answer it). */
export const LOCAL_MAIL_FROM = 'Gatehouse <gatehouse@localhost>';

export async function startSmtpLocal(options: { directory: string }): Promise<LocalService> {
  mkdirSync(options.directory, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    // Loopback only, no TLS, no login: the local stand-in of a relay, reachable from this machine alone.
    disabledCommands: ['AUTH', 'STARTTLS'],
    // A stop closes the mailers' pooled connections (SmtpMailer) at once, not after 30 s.
    closeTimeout: 100,
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        count += 1;
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(count).padStart(4, '0')}.eml`;
        // Written aside and renamed: a reader listing the folder never sees a message half written.
        const path = join(options.directory, name);
        writeFileSync(`${path}.part`, Buffer.concat(chunks));
        renameSync(`${path}.part`, path);
        done();
      });
    },
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { endpoint: `smtp://127.0.0.1:${port}`, stop: () => new Promise((done) => server.close(() => done())) };
}

export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    // Pooled: smtp-server waits 100 ms before it greets a new connection (to catch a client that
    // talks too soon), which made a message take 104 ms on a connection of its own, and a
    // registration half its time; on a pooled connection a message takes a few.
    this.transport = nodemailer.createTransport({
      host: hostname,
      port: Number(port),
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxMessages: Infinity,
    });
  }

  async send(mail: Mail): Promise<{ messageId: string }> {
    // As SES checks the function's IAM policy.
    checkAction('ses:SendEmail');
    const info = await this.transport.sendMail({
      from: LOCAL_MAIL_FROM,
      to: [...mail.to],
      subject: mail.subject,
      text: mail.text,
    });
    return { messageId: info.messageId };
  }
}
