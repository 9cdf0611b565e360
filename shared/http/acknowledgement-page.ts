/**
 * The acknowledgement link as a person sees it: a small HTML page (no script) that says what the
 * incident is and, while the link can acknowledge it, a button. The button posts a form to the same
 * address; that POST answers 303 back to the page (post, redirect, get), which then says what
 * happened. Programs keep POSTing for JSON.
 */
import type { LinkIncident, LinkView } from '../domain/incidents/index.js';
import type { Reply } from './reply.js';
import { minuteUtc as when } from '../ids.js';
import { escape, linkPage, PAGE_HEADERS } from './link-page.js';

export { formPostReply as acknowledgeFromForm, isFormPost } from './link-page.js';

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
  const coordinates = i.location
    ? `${i.location.lat.toFixed(5)}, ${i.location.lon.toFixed(5)}${i.location_from_event ? ' (where its event was)' : ''}`
    : null;
  const place = i.location_text ?? coordinates ?? (i.zones.length > 0 ? null : 'not given');
  const rows: [string, string][] = [
    [
      'Severity',
      `<span class="sev" style="background:${SEVERITY_COLOURS[i.severity] ?? '#555'}">${escape(i.severity)}</span>`,
    ],
  ];
  if (i.zones.length > 0) rows.push([i.zones.length > 1 ? 'Zones' : 'Zone', escape(i.zones.join(', '))]);
  if (place) rows.push(['Location', escape(place)]);
  rows.push(['Raised', escape(when(i.created_at))]);
  if (i.occurred_at) rows.push(['Happened', escape(when(i.occurred_at))]);
  rows.push(['Status', escape(STATUS_WORDS[i.status] ?? i.status)]);
  return `<h1>${escape(i.title)}</h1><dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
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
  return {
    text: linkPage('Gatehouse incident', title, body),
    contentType: 'text/html; charset=utf-8',
    headers: PAGE_HEADERS,
  };
}
