/**
 * Pages behind links sent to people (acknowledgement, registration confirmation): small HTML
 * pages with no script whose only form posts to the link itself; that POST answers 303 back to the
 * page (post, redirect, get). Opening a link never changes anything: mail scanners open links too.
 */
import { ConflictError, ForbiddenError } from '../errors.js';
import type { Reply } from './reply.js';

/** No script, no outside resource, no framing; the page may only post its form to itself. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  // The token is in the address: never send it on as a referrer, never index it.
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
};

export const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A page of the service: `brand` above `body`, with the styles the link pages share. */
export function linkPage(brand: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escape(title)} - Gatehouse</title>
<style>
body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem;margin:.2rem 0 1rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}
dt{color:#555}dd{margin:0}
.sev{color:#fff;padding:.1rem .5rem;border-radius:.3rem;text-transform:uppercase;font-size:.85rem}
.note{padding:.8rem 1rem;border-radius:.4rem;background:#f1f3f4}
.done{background:#e6f4ea}
button{font-size:1.1rem;padding:.7rem 1.4rem;border:0;border-radius:.4rem;background:#1a73e8;color:#fff;cursor:pointer}
</style>
</head>
<body>
<p class="brand">${escape(brand)}</p>
${body}
</body>
</html>
`;
}

/** Whether a POST came from the page's form (a browser) rather than a program. */
export const isFormPost = (contentType: string | undefined): boolean =>
  /^application\/x-www-form-urlencoded\b/i.test(contentType ?? '');

/**
 * A link page's form POST: `act` runs, and whether it did or was refused (a link used meanwhile,
 * an incident resolved: 403 or 409), the answer is 303 back to the page, which reads the link
 * again and says which. Any other failure stays an error.
 */
export async function formPostReply(token: string, act: () => Promise<unknown>): Promise<Reply> {
  try {
    await act();
  } catch (err) {
    if (!(err instanceof ForbiddenError || err instanceof ConflictError)) throw err;
  }
  return {
    status: 303,
    // Relative to the link itself: the same path (whatever stage prefix it has), as a GET.
    headers: { Location: `?token=${encodeURIComponent(token)}`, 'Cache-Control': 'no-store' },
    text: '',
    contentType: 'text/plain; charset=utf-8',
  };
}
