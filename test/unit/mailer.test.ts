/** Email through Amazon SES (mocked: SES has no local counterpart; the local SMTP path is tested end to end). */
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { SesMailer } from '../../shared/adapters/mailer.js';

describe('SesMailer', () => {
  it('sends a plain-text message from the configured sender with SESv2 SendEmail', async () => {
    const ses = mockClient(SESv2Client);
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
    const sent = await new SesMailer(new SESv2Client({ region: 'eu-west-1' }), 'alerts@harbour.example').send({
      to: ['soc@harbour.example'],
      subject: 'Incident: fence cut',
      text: 'Acknowledge: https://api.example/ack',
    });
    expect(sent).toEqual({ messageId: 'ses-1' });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input).toEqual({
      FromEmailAddress: 'alerts@harbour.example',
      Destination: { ToAddresses: ['soc@harbour.example'] },
      Content: {
        Simple: {
          Subject: { Data: 'Incident: fence cut', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Acknowledge: https://api.example/ack', Charset: 'UTF-8' } },
        },
      },
    });
    ses.restore();
  });
});
