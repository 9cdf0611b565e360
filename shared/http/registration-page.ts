/**
 * The registration's confirmation link as a person sees it: a button that confirms, or a page
 * that says the link was used, has expired or is not valid (shared/http/link-page.ts).
 */
import type { ConfirmationLink } from '../domain/accounts/index.js';
import { escape, linkPage, PAGE_HEADERS } from './link-page.js';
import type { Reply } from './reply.js';
import { minuteUtc as when } from '../ids.js';

/** Always 200: the page itself says what the link is. */
export function registrationPageReply(link: ConfirmationLink): Reply {
  let title: string;
  let body: string;
  switch (link.state) {
    case 'open':
      title = 'Confirm your registration';
      body = `<h1>Confirm your registration</h1>
<p>This makes your organisation and lets you log in with the email and password you registered with.</p>
<form method="post"><button type="submit">Confirm</button></form>
<p class="note">This link works once, until ${escape(when(link.expires_at))}.</p>`;
      break;
    case 'used':
      title = 'Registration confirmed';
      body = `<h1>Registration confirmed</h1>
<p class="note done" role="status">Confirmed at ${escape(when(link.confirmed_at))}: log in with the email and password you registered with.</p>`;
      break;
    case 'expired':
      title = 'Link expired';
      body = `<h1>This link has expired</h1>
<p class="note" role="status">It stopped working at ${escape(when(link.expired_at))}. Register again with the same address for a new link.</p>`;
      break;
    case 'invalid':
      title = 'Link not valid';
      body = `<h1>This link is not valid</h1>
<p class="note" role="status">A newer registration of the address may have replaced it (use the link of the latest message), or the address was not copied whole.</p>`;
      break;
  }
  return {
    text: linkPage('Gatehouse registration', title, body),
    contentType: 'text/html; charset=utf-8',
    headers: PAGE_HEADERS,
  };
}
