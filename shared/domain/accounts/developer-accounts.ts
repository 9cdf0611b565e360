/**
 * A developer's account, made at once for a free key (`POST /v1/auth/keys`, docs/developer-api.md),
 * so that the answer does not tell whether the address has an account, as registration's does not
 * (./registration.ts).
 *
 * Every request makes a new tenant on the free plan, its TENANT_ADMIN (a user item with the
 * address, a new random id) and the caller's further writes (the key), in one transaction, and
 * mails the address once. No login identity is made, whatever the address: the account is reached
 * through its key alone, so nothing logs in to it, nothing of an account the address has is
 * reached from it, and asking for a key with an address does not take the address from its owner
 * (who can still register it in the portal). The steps and the mail are the same for every address.
 */
import { emailConfigured, mailer } from '../../adapters/mailer.js';
import { newId } from '../../ids.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { writeRegisteredTenant, type AlsoWrite, type Registered } from './portal.js';

/**
 * Makes a developer's tenant for `address` with `alsoWrite`'s items (see the module's comment).
 * Without a mailer (no EMAIL_FROM) it mails no one.
 */
export async function openDeveloperAccount(actor: Actor, address: string, alsoWrite: AlsoWrite): Promise<Registered> {
  const email = address.trim().toLowerCase();
  const made = await writeRegisteredTenant(
    actor,
    { email, tenantId: systemTenant(newId()), userId: newId(), organization_name: `Developer ${email}` },
    alsoWrite,
  );
  if (emailConfigured()) await mailer().send({ to: [email], ...KEY_REQUESTED_MAIL });
  return made;
}

const KEY_REQUESTED_MAIL = {
  subject: 'A Gatehouse developer key was requested with your address',
  text: `Someone, we hope you, asked for a free Gatehouse developer API key with this address.

The key was made in a developer tenant of its own, which holds nothing but the key, and was shown once to whoever asked. It is not linked to any account of this address: it reaches nothing of an organisation you belong to, no one can log in with it, and this address stays free to register or use in the portal.

If it was not you, you need do nothing.
`,
};
