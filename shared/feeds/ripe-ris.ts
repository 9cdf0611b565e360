/**
 * BGP updates from RIPE RIS Live (https://ris-live.ripe.net/), the RIPE NCC Routing Information
 * Service's real-time stream of what its route collectors (rrcNN) hear from their BGP peers. Each
 * message is JSON, `{"type":"ris_message","data":{...}}`, the data of an UPDATE carrying the peer,
 * its ASN (a string), the collector (`host`), a Unix timestamp, the AS path, and `announcements`
 * (`[{next_hop, prefixes}]`) and/or `withdrawals` (prefixes). A body is a batch of such messages,
 * one per line (as the stream sends them), or a JSON array of them. docs/feeds.md shows real ones.
 */
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, text } from './feed-document.js';
import { parsePrefix } from './ip-prefix.js';

/** The HTTP stream of RIS Live (one JSON message per line); `client` names the caller, as RIPE asks. */
export const RIS_LIVE_URL = 'https://ris-live.ripe.net/v1/stream/?format=json&client=gatehouse';
/** A batch of RIS Live messages read at once; the full stream is tens of MB a minute, so filter it (`prefix=`, `path=`). */
export const RIS_LIVE_MAX_BYTES = 8 * 1024 * 1024;
export const RIS_LIVE_DESCRIPTION =
  'RIPE RIS Live: BGP announcements and withdrawals seen by the RIPE NCC route collectors, with peer, AS path and origin AS; the input of hijack and leak alerts for the prefixes and ASNs a tenant watches.';

/** An element of an AS path: an AS number, or an AS_SET (a set of ASNs, written as a nested array). */
export type AsPathElement = number | number[];

export interface BgpUpdateRecord {
  /** `ris-<message id>-<a|w>-<prefix>`: one per prefix of a message, the same on every re-read. */
  id: string;
  kind: 'announcement' | 'withdrawal';
  /** Canonical text (`2a01:6e00::/48` for RIS's `2a01:6e00:0:0:0:0:0:0/48`). */
  prefix: string;
  /** When the collector received the update, ISO 8601 UTC. */
  time: string;
  /** The route collector (`rrc21`, `rrc25.ripe.net`). */
  collector: string | null;
  peer: string | null;
  peer_asn: number;
  /** Announcements: the AS path as sent, nearest AS first; withdrawals carry none (null). */
  path: AsPathElement[] | null;
  /** The last AS of the path, or null for a withdrawal, an empty path, or a path ending in an AS_SET (no single origin). */
  origin_asn: number | null;
  /** Announcements: every next hop the prefix was announced with in the message (global and link-local for IPv6). */
  next_hops: string[];
  /** RIS's message id (`20-5761-238131559`), or null when the message has none. */
  message_id: string | null;
  source_url: string;
}

const FEED = 'RIPE RIS Live';
const isAsn = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 4294967295;

function asn(v: unknown): number | null {
  if (isAsn(v)) return v;
  if (typeof v === 'string' && /^\d{1,10}$/.test(v.trim()) && isAsn(Number(v))) return Number(v);
  return null;
}

function asPath(v: unknown): AsPathElement[] | string {
  if (!Array.isArray(v)) return 'path is not a list';
  const out: AsPathElement[] = [];
  for (const e of v) {
    if (isAsn(e)) out.push(e);
    else if (Array.isArray(e) && e.length > 0 && e.every(isAsn)) out.push([...e]);
    else return `path has an element that is not an AS number or AS_SET (${JSON.stringify(e)})`;
  }
  return out;
}

/** The messages of a body: JSON lines, or one JSON array; null when it is neither. */
function messages(body: string): unknown[] | null {
  const trimmed = body.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    try {
      const doc: unknown = JSON.parse(trimmed);
      return Array.isArray(doc) ? (doc as unknown[]) : null;
    } catch {
      return null;
    }
  }
  return trimmed.split(/\r?\n/).map((line): unknown => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return line;
    }
  });
}

/**
 * The announcements and withdrawals of a batch of RIS Live messages. Messages other than UPDATEs
 * (OPEN, KEEPALIVE, NOTIFICATION, RIS_PEER_STATE, pong) are not routing changes and are passed over;
 * a line that is not JSON or an UPDATE that cannot be read is a problem. A body in which no line is
 * a RIS Live message throws FeedFormatError.
 */
export function parseRisLive(body: string, sourceUrl: string): FeedParse<BgpUpdateRecord> {
  if (body.trimStart().startsWith('<'))
    throw new FeedFormatError(
      FEED,
      `the body is HTML or XML, not RIS Live JSON (starts "${body.trimStart().slice(0, 32)}")`,
    );
  const list = messages(body);
  if (!list) throw new FeedFormatError(FEED, 'the body is neither JSON lines nor a JSON array of RIS Live messages');
  const isRis = (m: unknown) =>
    isObject(m) && ((typeof m.type === 'string' && m.type.startsWith('ris_')) || ('peer_asn' in m && 'host' in m));
  if (list.length > 0 && !list.some(isRis))
    throw new FeedFormatError(FEED, 'no line is a RIS Live message ({"type":"ris_message",...})');

  const records: BgpUpdateRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  list.forEach((m, i) => {
    if (typeof m === 'string')
      return problems.push({ entry: i, id: null, reason: `not JSON (${JSON.stringify(m.slice(0, 40))})` });
    if (!isObject(m)) return problems.push({ entry: i, id: null, reason: 'not a RIS Live message' });
    // The stream wraps each message; RIS's own tools also write the bare data objects.
    if (typeof m.type === 'string' && m.type !== 'ris_message') {
      if (m.type === 'ris_error')
        problems.push({
          entry: i,
          id: null,
          reason: `RIS Live reported an error (${JSON.stringify(isObject(m.data) ? m.data.message : m.data)})`,
        });
      return; // pong, ris_subscribe_ok, ris_rrc_list: not routing data
    }
    const d = m.type === 'ris_message' ? m.data : m;
    if (!isObject(d)) return problems.push({ entry: i, id: null, reason: 'a ris_message without a data object' });
    const messageId = text(d.id);
    if (d.type === undefined)
      return problems.push({ entry: i, id: messageId, reason: 'a ris_message with no BGP message type' });
    if (d.type !== 'UPDATE') return; // OPEN, KEEPALIVE, NOTIFICATION, RIS_PEER_STATE
    const peerAsn = asn(d.peer_asn);
    if (peerAsn === null)
      return problems.push({
        entry: i,
        id: messageId,
        reason: `peer_asn is not an AS number (${JSON.stringify(d.peer_asn)})`,
      });
    if (typeof d.timestamp !== 'number' || !Number.isFinite(d.timestamp) || d.timestamp <= 0)
      return problems.push({
        entry: i,
        id: messageId,
        reason: `timestamp is not Unix seconds (${JSON.stringify(d.timestamp)})`,
      });
    const time = new Date(Math.round(d.timestamp * 1000)).toISOString();
    const key = messageId ?? `${text(d.host) ?? '?'}-${text(d.peer) ?? '?'}-${d.timestamp}`;

    const announced = new Map<string, string[]>();
    const withdrawn: string[] = [];
    for (const a of Array.isArray(d.announcements) ? d.announcements : []) {
      if (!isObject(a) || !Array.isArray(a.prefixes))
        return problems.push({ entry: i, id: messageId, reason: 'an announcement without a prefix list' });
      for (const raw of a.prefixes) {
        const p = parsePrefix(raw);
        if (!p)
          return problems.push({
            entry: i,
            id: messageId,
            reason: `announced prefix is not a prefix (${JSON.stringify(raw)})`,
          });
        const hops = announced.get(p.text) ?? [];
        if (text(a.next_hop) && !hops.includes(a.next_hop as string)) hops.push(a.next_hop as string);
        announced.set(p.text, hops);
      }
    }
    for (const raw of Array.isArray(d.withdrawals) ? d.withdrawals : []) {
      const p = parsePrefix(raw);
      if (!p)
        return problems.push({
          entry: i,
          id: messageId,
          reason: `withdrawn prefix is not a prefix (${JSON.stringify(raw)})`,
        });
      if (!withdrawn.includes(p.text)) withdrawn.push(p.text);
    }
    if (announced.size === 0 && withdrawn.length === 0)
      return problems.push({ entry: i, id: messageId, reason: 'an UPDATE with no announcement and no withdrawal' });
    let path: AsPathElement[] | null = null;
    if (announced.size > 0) {
      const p = asPath(d.path);
      if (typeof p === 'string') return problems.push({ entry: i, id: messageId, reason: p });
      path = p;
    }
    const last = path?.at(-1);
    const origin = typeof last === 'number' ? last : null;
    const base = {
      time,
      collector: text(d.host),
      peer: text(d.peer),
      peer_asn: peerAsn,
      message_id: messageId,
      source_url: sourceUrl,
    };
    const add = (r: BgpUpdateRecord) => {
      if (seen.has(r.id)) return problems.push({ entry: i, id: r.id, reason: 'the same update twice' });
      seen.add(r.id);
      records.push(r);
    };
    for (const [prefix, hops] of announced)
      add({
        id: `ris-${key}-a-${prefix}`,
        kind: 'announcement',
        prefix,
        ...base,
        path,
        origin_asn: origin,
        next_hops: hops,
      });
    for (const prefix of withdrawn)
      add({
        id: `ris-${key}-w-${prefix}`,
        kind: 'withdrawal',
        prefix,
        ...base,
        path: null,
        origin_asn: null,
        next_hops: [],
      });
  });
  return { records, problems };
}
