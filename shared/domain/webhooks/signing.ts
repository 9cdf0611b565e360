/**
 * Standard Webhooks 1.0 signatures, made with the `standardwebhooks` package (the reference
 * implementation receivers verify with): `webhook-id`, `webhook-timestamp` and `webhook-signature`,
 * one `v1,<base64>` per secret, space-separated (two for 24 hours after a rotation).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks has them. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The headers of a delivery of `body`, signed with every secret given. */
export function signedHeaders(
  messageId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  if (secrets.length === 0) throw new Error('a delivery needs a secret to be signed with');
  return {
    'content-type': 'application/json',
    'user-agent': 'Gatehouse-Webhooks/1',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
