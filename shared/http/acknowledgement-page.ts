/**
 * The acknowledgement link as a person sees it: a small HTML page (no script) that says what the
 * incident is and, while the link can acknowledge it, a button. The button posts a form to the same
 * address; that POST answers 303 back to the page (post, redirect, get), which then says what
 * happened. Programs keep POSTing for JSON.
 */
import type { LinkIncident, LinkView } from '../domain/incidents/index.js';
import { ConflictError, ForbiddenError } from '../errors.js';
import type { Reply } from './reply.js';

/** No script, no outside resource, no framing; the page may only post its form to itself. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  // The token is in the address: never send it on as a referrer, never index it.
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
};

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `2026-11-24T14:05:09.123Z` as `2026-11-24 14:05 UTC`. */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const SEVERITY_COLOURS: Record<string, string> = {
  critical: '#b00020',
  high: '#d35400',
  medium: '#b7950b',
  low: '#2e7d32',
};

const STATUS_WORDS: Record<string, string> = {
  draft: 'a draft',
  confirmed: 'waiting for acknowledgement',
  acknowledged: 'acknowledged',
  in_progress: 'in progress',
  on_hold: 'on hold',
  resolved: 'resolved',
  closed: 'closed',
  cancelled: 'cancelled',
};

function incidentFacts(i: LinkIncident): string {
  const place =
    i.location_text ?? (i.location ? `${i.location.lat.toFixed(5)}, ${i.location.lon.toFixed(5)}` : 'not given');
  const rows: [string, string][] = [
    [
      'Severity',
      `<span class="sev" style="background:${SEVERITY_COLOURS[i.severity] ?? '#555'}">${escape(i.severity)}</span>`,
    ],
    ['Location', escape(place)],
    ['Raised', escape(when(i.created_at))],
  ];
  if (i.occurred_at) rows.push(['Happened', escape(when(i.occurred_at))]);
  rows.push(['Status', escape(STATUS_WORDS[i.status] ?? i.status)]);
  return `<h1>${escape(i.title)}</h1><dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function page(title: string, body: string): string {
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
<p class="brand">Gatehouse incident</p>
${body}
</body>
</html>
`;
}

/** The page of a link in each of its states (always 200: the page itself says what the link is). */
export function acknowledgementPageReply(view: LinkView): Reply {
  let title: string;
  let body: string;
  switch (view.state) {
    case 'open':
      title = 'Acknowledge incident';
      body = `${incidentFacts(view.incident)}
<form method="post"><button type="submit">Acknowledge</button></form>
<p class="note">Acknowledging tells your team you have seen this incident and stops its escalation. This link works once, until ${escape(when(view.expires_at))}.</p>`;
      break;
    case 'used':
      title = 'Incident acknowledged';
      body = `${incidentFacts(view.incident)}
<p class="note done" role="status">Acknowledged through this link at ${escape(when(view.used_at))}.</p>`;
      break;
    case 'settled':
      title = 'Nothing to acknowledge';
      body = `${incidentFacts(view.incident)}
<p class="note" role="status">This incident is ${escape(STATUS_WORDS[view.incident.status] ?? view.incident.status)}: there is nothing left to acknowledge.</p>`;
      break;
    case 'expired':
      title = 'Link expired';
      body = `<h1>This link has expired</h1>
<p class="note" role="status">It stopped working at ${escape(when(view.expired_at))}. If the incident is still open, a new notification brings a new link; or acknowledge it in the console.</p>`;
      break;
    case 'invalid':
      title = 'Link not valid';
      body = `<h1>This link is not valid</h1>
<p class="note" role="status">Check that the whole address was copied from the notification.</p>`;
      break;
  }
  return { text: page(title, body), contentType: 'text/html; charset=utf-8', headers: PAGE_HEADERS };
}

/** Whether a POST came from the page's form (a browser) rather than a program. */
export const isFormPost = (contentType: string | undefined): boolean =>
  /^application\/x-www-form-urlencoded\b/i.test(contentType ?? '');

/**
 * The form's POST: `acknowledge` runs, and whether it acknowledged or was refused (a link used
 * meanwhile, an incident resolved), the answer is 303 back to the page, which reads the link
 * again and says which. Any other failure stays an error.
 */
export async function acknowledgeFromForm(token: string, acknowledge: () => Promise<unknown>): Promise<Reply> {
  try {
    await acknowledge();
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
