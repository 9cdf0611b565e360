/**
 * Email to people: Amazon SES (v2 SendEmail) from the deployment's sender address (EMAIL_FROM),
 * unless the program was composed with another mailer (the local runtime's SMTP server:
 * shared/local/smtp.ts). One instance per process.
 */
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config.js';
import { portOf, setPort } from '../runtime-ports.js';
import { tracedClient } from '../tracing.js';

export interface Mail {
  to: readonly string[];
  subject: string;
  text: string;
}

export interface Mailer {
  /** Hands the message over for delivery; resolves with the service's message id. */
  send(mail: Mail): Promise<{ messageId: string }>;
}

/** No sender is configured (no EMAIL_FROM): email cannot be sent from this deployment. */
export class EmailNotConfiguredError extends Error {
  override readonly name = 'EmailNotConfiguredError';
}

export class SesMailer implements Mailer {
  constructor(
    private readonly ses: SESv2Client,
    private readonly from: string,
  ) {}

  async send(mail: Mail): Promise<{ messageId: string }> {
    const out = await this.ses.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [...mail.to] },
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: mail.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
    return { messageId: out.MessageId ?? '' };
  }
}

let ses: Mailer | undefined;

/** Where the program is composed: the mailer to use instead of SES (shared/runtime-ports.ts). */
export function useMailer(m: Mailer): void {
  setPort('mailer', m);
}

export function mailer(): Mailer {
  const composed = portOf<Mailer>('mailer');
  if (composed) return composed;
  if (!ses) {
    if (!config.emailFrom)
      throw new EmailNotConfiguredError(
        'no sender address is configured (EMAIL_FROM): this deployment cannot send email',
      );
    ses = new SesMailer(tracedClient(new SESv2Client({ region: config.region })), config.emailFrom);
  }
  return ses;
}

/** Whether email can be sent from here (a sender configured, or a mailer composed in). */
export function emailConfigured(): boolean {
  return Boolean(portOf<Mailer>('mailer') ?? config.emailFrom);
}
