/**
 * The entities an event names (docs/threat-score.md): the sensor that sent it, the vessel (MMSI)
 * it is about, and the IP addresses and domains in its payload. The threat score's history reads
 * them (the mention index the stream worker keeps), and a watchlist alert is raised when one of
 * them is watched. Pure: the same event gives the same entities, in the same order.
 *
 * - `sensor`: the event's `sensor_id`.
 * - `mmsi`: `payload.mmsi`, nine digits (a number or a string).
 * - `ip`: any string of the payload, three levels deep, that is an IPv4 or IPv6 address as a
 *   whole (IPv6 lower-cased, IPv4-mapped IPv6 taken as its IPv4).
 * - `domain`: strings under a payload key that names a host (`domain`, `host`, `hostname`, `fqdn`,
 *   `sni`, `server_name`, a plural of these, or a key ending in `_domain`/`_host`), the host of a
 *   string under a key that names a URL (`url`, `uri`, `link`, `referer`, or ending in `_url`), and
 *   the domain of a string under a key that names an email (`email`, `sender`, `from`, `to`, or
 *   ending in `_email`). An array's items go by the array's key.
 *   Lower-cased, without a trailing dot; a name must have a dot and a letter after the last one.
 *
 * At most MAX_MENTIONS entities an event, the first found.
 */
import { isIP } from 'node:net';

export const MENTION_TYPES = ['ip', 'domain', 'mmsi', 'sensor'] as const;
export type MentionType = (typeof MENTION_TYPES)[number];

export interface Mention {
  type: MentionType;
  value: string;
}

export const MAX_MENTIONS = 16;

const HOST_KEY = /^(?:domains?|hosts?|hostnames?|fqdn|sni|server_name|.+_domain|.+_host)$/i;
const URL_KEY = /^(?:urls?|uri|links?|referer|referrer|.+_url|.+_uri)$/i;
const EMAIL_KEY = /^(?:emails?|sender|from|to|reply_to|.+_email)$/i;
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const MMSI = /^[0-9]{9}$/;

/** The address as the index keeps it: IPv6 lower-cased, an IPv4-mapped IPv6 as its IPv4; null when not an address. */
export function normaliseIp(text: string): string | null {
  const s = text.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  return isIP(s) ? s : null;
}

/** The domain as the index keeps it: lower-cased, no trailing dot; null when not a host name. */
export function normaliseDomain(text: string): string | null {
  const s = text.trim().toLowerCase().replace(/\.$/, '');
  return HOST_NAME.test(s) && isIP(s) === 0 ? s : null;
}

function hostOfUrl(text: string): string | null {
  try {
    const host = new URL(text.trim()).hostname.replace(/^\[|\]$/g, '');
    return host || null;
  } catch {
    return null;
  }
}

/** The MMSI a payload names (nine digits), or null. */
export function mmsiOf(payload: Record<string, unknown>): string | null {
  const m = payload.mmsi;
  const text =
    typeof m === 'number' && Number.isInteger(m) ? String(m).padStart(9, '0') : typeof m === 'string' ? m.trim() : '';
  return MMSI.test(text) ? text : null;
}

/** The entities an event names, without repeats, at most MAX_MENTIONS. */
export function mentionsOf(event: { sensor_id: string | null; payload: Record<string, unknown> }): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<string>();
  const add = (type: MentionType, value: string | null) => {
    if (!value || out.length >= MAX_MENTIONS) return;
    const key = `${type}:${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ type, value });
  };
  if (event.sensor_id) add('sensor', event.sensor_id);
  add('mmsi', mmsiOf(event.payload));
  const visit = (value: unknown, key: string, depth: number) => {
    if (out.length >= MAX_MENTIONS) return;
    if (typeof value === 'string') {
      const ip = normaliseIp(value);
      if (ip) return add('ip', ip);
      if (HOST_KEY.test(key)) return add('domain', normaliseDomain(value));
      if (URL_KEY.test(key)) {
        const host = hostOfUrl(value);
        if (!host) return;
        const hostIp = normaliseIp(host);
        return hostIp ? add('ip', hostIp) : add('domain', normaliseDomain(host));
      }
      if (EMAIL_KEY.test(key)) {
        const at = value.lastIndexOf('@');
        if (at > 0) add('domain', normaliseDomain(value.slice(at + 1)));
      }
      return;
    }
    if (!value || typeof value !== 'object' || depth >= 3) return;
    if (Array.isArray(value)) for (const v of value) visit(v, key, depth + 1);
    else for (const [k, v] of Object.entries(value)) visit(v, k, depth + 1);
  };
  visit(event.payload, '', 0);
  return out;
}
