/**
 * A developer's account, made at once for a free key (`POST /v1/auth/keys`, docs/developer-api.md),
 * so that the answer does not tell whether the address has an account, as registration's does not
 * (./registration.ts).
 *
 * Every request makes a new tenant on the free plan, its TENANT_ADMIN (a user item with the
 * address) and the caller's further writes (the key), in one transaction, and mails the address
 * once. For a new address the TENANT_ADMIN's identity is made too, without a password (no one can
 * log in with it: the account is reached through its key), and the mail says a developer account
 * was made. For an address the identity store knows already (an account, a pending registration,
 * an earlier developer account) the identity is left alone: the new tenant is of its own, its user
 * has a new random id and no identity, so nothing logs in to it and nothing of the address's
 * account is reached from it; the mail tells the owner that a key was asked for with the address.
 *
 * Both take the same steps: ask the identity store to create the identity (made, or refused
 * because it exists), one transaction of the same items, one email. Neither hashes a password.
 */
import { createIdentity, deleteIdentity, IdentityExistsError } from '../../adapters/cognito.js';
import { emailConfigured, mailer } from '../../adapters/mailer.js';
import { newId } from '../../ids.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { writeRegisteredTenant, type AlsoWrite, type Registered } from './portal.js';

/**
 * Makes a developer's tenant for `address` with `alsoWrite`'s items (see the module's comment).
 * Without a mailer (no EMAIL_FROM) it mails no one, whatever the address.
 */
export async function openDeveloperAccount(actor: Actor, address: string, alsoWrite: AlsoWrite): Promise<Registered> {
  const email = address.trim().toLowerCase();
  const tenantId = systemTenant(newId());
  let identity: { userId: string } | null;
  try {
    identity = await createIdentity({ email, tenantId });
  } catch (err) {
    if (!(err instanceof IdentityExistsError)) throw err;
    identity = null;
  }
  let made: Registered;
  try {
    made = await writeRegisteredTenant(
      actor,
      { email, tenantId, userId: identity?.userId ?? newId(), organization_name: `Developer ${email}` },
      alsoWrite,
    );
  } catch (err) {
    // Only an identity made here is taken back: an existing one is its owner's.
    if (identity) await deleteIdentity(email);
    throw err;
  }
  if (emailConfigured()) await mailer().send({ to: [email], ...(identity ? NEW_ACCOUNT_MAIL : EXISTING_ACCOUNT_MAIL) });
  return made;
}

const NEW_ACCOUNT_MAIL = {
  subject: 'A Gatehouse developer key was requested with your address',
  text: `Someone, we hope you, asked for a free Gatehouse developer API key with this address.

A developer account was made for it, and its key was shown once to whoever asked. The key reaches only that account's own tenant, which holds nothing but the key.

If it was not you, you need do nothing: no one can log in with this address through that account.
`,
};

const EXISTING_ACCOUNT_MAIL = {
  subject: 'A Gatehouse developer key was requested with your address',
  text: `Someone asked for a free Gatehouse developer API key with this address, which has an account already.

The key was made in a new developer tenant of its own, not linked to your account: it reaches nothing of your organisation or its data, and your password and account are as they were.

If it was you and you meant to use your account, log in as usual and issue keys there. If it was not you, you need do nothing.
`,
};
