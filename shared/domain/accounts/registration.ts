/**
 * Registering an organisation (`POST /api/v1/portal/register`, docs/identity.md#registering), so
 * that the answer does not tell whether the address has an account, as login's does not.
 *
 * Every registration is answered alike: 201 with a tenant id and a user id, `pending_confirmation`,
 * and one email to the address. For a new address the email carries a confirmation link; the
 * identity is made now (its id is the answer's `user_id`) without a password, the password is kept
 * sealed, and only the link sets it and writes the tenant and the user: until then the account cannot
 * log in, so logging in with the password just registered tells nothing either. For an address with
 * an account, nothing is made or changed; the email tells its owner that someone tried, and the ids
 * answered are new random ones, kept (as a trace) so that registering the address again names the
 * same ids, as registering a pending address again does.
 *
 * Both take the same steps: seal the password, read the address's registration, try to create the
 * identity (made, or refused because it exists), write the registration, send one email. Nothing
 * hashes a password in this request on either path; the identity store does it when the link sets it.
 */
import {
  createIdentity,
  deleteIdentity,
  IdentityExistsError,
  setIdentityPassword,
  WeakPasswordError,
} from '../../adapters/cognito.js';
import { emailConfigured, mailer } from '../../adapters/mailer.js';
import { secretBox, type SecretContext } from '../../adapters/secret-box.js';
import { endRegistration, getRegistration, putRegistration, type StoredRegistration } from '../../db/registrations.js';
import { ConditionFailed } from '../../db/transact.js';
import { ForbiddenError, invalid, ServiceUnavailableError } from '../../errors.js';
import { minuteUtc as when, newId, now } from '../../ids.js';
import { meetsPasswordPolicy, PASSWORD_RULES } from '../../vocabulary/password-policy.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { accountHash, writeRegisteredTenant, type Registered, type Registration } from './portal.js';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a confirmation link works; registering again mails a new one. */
export const CONFIRMATION_HOURS = 24;

/** The path of the confirmation link, below the API's public address. */
export const CONFIRM_PATH = '/api/v1/portal/register/confirm';

export interface RegistrationAnswer extends Registered {
  status: 'pending_confirmation';
}

const weakPassword = () =>
  invalid(['body', 'password'], `does not meet the password policy: ${PASSWORD_RULES}`, 'password_policy');

/** What is stored of a link's token: its SHA-256. */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** What the sealed password is bound to: this address's registration. */
const sealedFor = (emailHash: string): SecretContext => ({ purpose: `registration:${emailHash}` });

/** The link's token: `reg_`, the address's hash (which registration), then the secret. */
const linkToken = (emailHash: string, secret: string) => `reg_${emailHash}${secret}`;

function parseLinkToken(token: string): { emailHash: string; tokenHash: string } | null {
  const match = /^reg_([0-9a-f]{64})[A-Za-z0-9_-]{43}$/.exec(token);
  return match ? { emailHash: match[1]!, tokenHash: hashToken(token) } : null;
}

/**
 * Registers `input.email` (see the module's comment). `linkBase` is where people reach the API
 * (the confirmation link is `<linkBase>/api/v1/portal/register/confirm?token=...`).
 */
export async function requestRegistration(
  actor: Actor,
  input: Registration,
  linkBase: string,
): Promise<RegistrationAnswer> {
  if (!meetsPasswordPolicy(input.password)) throw weakPassword();
  if (!emailConfigured())
    throw new ServiceUnavailableError('Registration needs email, and this deployment sends none (no EMAIL_FROM)');
  const email = input.email.trim().toLowerCase();
  const emailHash = accountHash(email);
  const secret = randomBytes(32).toString('base64url');
  const token = linkToken(emailHash, secret);
  const [sealed, earlier] = await Promise.all([
    secretBox().seal(input.password, sealedFor(emailHash)),
    getRegistration(emailHash),
  ]);
  const at = now();
  const linkExpiresAt = new Date(Date.parse(at) + CONFIRMATION_HOURS * 3_600_000).toISOString();
  const candidateTenant = systemTenant(newId());
  let made: { userId: string } | null;
  try {
    made = await createIdentity({ email, tenantId: candidateTenant });
  } catch (err) {
    if (!(err instanceof IdentityExistsError)) throw err;
    made = null;
  }
  const base = {
    email_hash: emailHash,
    token_hash: hashToken(token),
    link_expires_at: linkExpiresAt,
    registered_at: at,
  };
  const pending = (tenantId: string, userId: string): StoredRegistration => ({
    ...base,
    kind: 'pending',
    tenant_id: tenantId,
    user_id: userId,
    email,
    organization_name: input.organization_name,
    name: input.name?.trim() || null,
    password_sealed: sealed,
  });
  let ids: { tenant_id: string; user_id: string };
  let mail: { subject: string; text: string };
  if (made) {
    // A new address: its identity is ours, whatever an old record of the address says.
    ids = { tenant_id: candidateTenant, user_id: made.userId };
    try {
      await putRegistration(pending(ids.tenant_id, ids.user_id), { as: 'new' });
    } catch (err) {
      await deleteIdentity(email);
      throw err;
    }
    mail = confirmationMail(`${linkBase}${CONFIRM_PATH}?token=${token}`, linkExpiresAt);
  } else if (earlier?.kind === 'pending') {
    // Registered before and not confirmed: the same account, with this password and a new link.
    ids = { tenant_id: earlier.tenant_id, user_id: earlier.user_id };
    await putRegistration(pending(ids.tenant_id, ids.user_id), { as: 'renewed', userId: earlier.user_id });
    mail = confirmationMail(`${linkBase}${CONFIRM_PATH}?token=${token}`, linkExpiresAt);
  } else {
    // The address has an account: nothing is made; the ids are the trace's, as a pending one's would be.
    ids =
      earlier?.kind === 'existing'
        ? { tenant_id: earlier.tenant_id, user_id: earlier.user_id }
        : { tenant_id: newId(), user_id: newId() };
    await putRegistration({ ...base, kind: 'existing', ...ids }, { as: 'trace' });
    mail = EXISTING_ACCOUNT_MAIL;
  }
  await mailer().send({ to: [email], ...mail });
  return {
    tenant_id: systemTenant(ids.tenant_id),
    user_id: ids.user_id,
    email,
    role: 'TENANT_ADMIN',
    plan: 'free',
    status: 'pending_confirmation',
  };
}

function confirmationMail(link: string, expiresAt: string): { subject: string; text: string } {
  return {
    subject: 'Confirm your Gatehouse registration',
    text: `Someone, we hope you, registered a new organisation on Gatehouse with this address.

To finish, open this link (it works once, until ${when(expiresAt)}):

${link}

Until then the account cannot log in. If you did not register, ignore this message: nothing is made without the link.
`,
  };
}

const EXISTING_ACCOUNT_MAIL = {
  subject: 'Someone tried to register with your Gatehouse address',
  text: `Someone asked to register a new organisation on Gatehouse with this address, which has an account already.

Nothing was changed: your password, your organisation and its data are as they were, and no account was made.

If it was you, log in with your password as usual. If it was not, you need do nothing.
`,
};

/** What a confirmation link is now: still to be used (with what it makes), used, expired, or not valid (replaced, wrong). */
export type ConfirmationLink =
  | { state: 'open'; registration: StoredRegistration; expires_at: string }
  | { state: 'used'; confirmed_at: string }
  | { state: 'expired'; expired_at: string }
  | { state: 'invalid' };

export async function confirmationLink(token: string): Promise<ConfirmationLink> {
  const parsed = parseLinkToken(token);
  if (!parsed) return { state: 'invalid' };
  const stored = await getRegistration(parsed.emailHash);
  if (!stored || stored.kind === 'existing') return { state: 'invalid' };
  const expected = Buffer.from(stored.token_hash, 'hex');
  const actual = Buffer.from(parsed.tokenHash, 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { state: 'invalid' };
  if (stored.kind === 'confirmed') return { state: 'used', confirmed_at: stored.confirmed_at ?? stored.registered_at };
  if (Date.parse(stored.link_expires_at) <= Date.now()) return { state: 'expired', expired_at: stored.link_expires_at };
  return { state: 'open', registration: stored, expires_at: stored.link_expires_at };
}

const REFUSED = 'This confirmation link is not valid: it may have been used, replaced by a newer one, or have expired';

/**
 * Uses a confirmation link: sets the password kept sealed, then writes the tenant, its configuration,
 * the TENANT_ADMIN and their audit entries with the registration's end in one transaction, so a
 * link confirms once. A bad, used, replaced or expired link is 403 and changes nothing.
 */
export async function confirmRegistration(actor: Actor, token: string): Promise<Registered & { status: 'active' }> {
  const link = await confirmationLink(token);
  if (link.state !== 'open') throw new ForbiddenError(REFUSED);
  const r = link.registration;
  const password = await secretBox().open(r.password_sealed!, sealedFor(r.email_hash));
  try {
    await setIdentityPassword(r.email!, password);
  } catch (err) {
    // The policy was checked when it registered; a pool with a stricter one says so.
    if (err instanceof WeakPasswordError) throw weakPassword();
    throw err;
  }
  try {
    const made = await writeRegisteredTenant(
      actor,
      {
        email: r.email!,
        tenantId: systemTenant(r.tenant_id),
        userId: r.user_id,
        organization_name: r.organization_name!,
        name: r.name ?? null,
      },
      () => [endRegistration(r, now())],
    );
    return { ...made, status: 'active' };
  } catch (err) {
    // Another use of the link (or a newer registration) came first.
    if (err instanceof ConditionFailed) throw new ForbiddenError(REFUSED);
    throw err;
  }
}
