/**
 * RPKI: the validated ROA payloads (VRPs) a relying-party validator exports as JSON (Routinator's
 * `json` format, `{"roas":[{"asn":"AS196615","prefix":"93.175.147.0/24","maxLength":24,"ta":"ripe"}]}`;
 * rpki-client and Cloudflare's rpki.json write the ASN as a number), and the route origin
 * validation of RFC 6811 over them: a (prefix, origin AS) pair is `valid`, `invalid` or `not-found`.
 */
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, readJson, text } from './feed-document.js';
import { type IpPrefix, parsePrefix, truncate } from './ip-prefix.js';

/** A validator's JSON export. There is no public default: point it at the tenant's Routinator (`/json`) or rpki-client output. */
export const RPKI_VRPS_URL = 'https://rpki.cloudflare.com/rpki.json';
/** The global VRP set is about 700,000 entries, some 50 MB of JSON. */
export const RPKI_VRPS_MAX_BYTES = 128 * 1024 * 1024;
export const RPKI_VRPS_DESCRIPTION =
  "RPKI validated ROA payloads (VRPs) from a validator's JSON export (Routinator, rpki-client): which AS may originate which prefixes, up to which length; the reference for RFC 6811 route origin validation.";

export interface VrpRecord {
  /** `vrp-<asn>-<prefix>-<maxLength>`: a VRP is exactly that triple. */
  id: string;
  asn: number;
  prefix: string;
  max_length: number;
  /** The trust anchor it came from (`ripe`, `apnic`...), when given. */
  ta: string | null;
  source_url: string;
}

const FEED = 'RPKI VRP export';

function asnOf(v: unknown): number | null {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().replace(/^AS/i, '') : '';
  if (!/^\d{1,10}$/.test(s)) return null;
  const n = Number(s);
  return n <= 4294967295 ? n : null;
}

export function parseRpkiVrps(body: string, sourceUrl: string): FeedParse<VrpRecord> {
  const doc = readJson(body, FEED);
  if (!isObject(doc) || !Array.isArray(doc.roas))
    throw new FeedFormatError(
      FEED,
      'expected a JSON object with a "roas" list (a Routinator or rpki-client JSON export)',
    );
  const records: VrpRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  (doc.roas as unknown[]).forEach((r, i) => {
    if (!isObject(r)) return problems.push({ entry: i, id: null, reason: 'not a ROA object' });
    const asn = asnOf(r.asn);
    if (asn === null)
      return problems.push({ entry: i, id: null, reason: `asn is not an AS number (${JSON.stringify(r.asn)})` });
    const p = parsePrefix(r.prefix);
    if (!p)
      return problems.push({ entry: i, id: null, reason: `prefix is not a prefix (${JSON.stringify(r.prefix)})` });
    const max = r.maxLength;
    const bits = p.version === 4 ? 32 : 128;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < p.length || max > bits) {
      return problems.push({
        entry: i,
        id: null,
        reason: `maxLength is not between ${p.length} and ${bits} (${JSON.stringify(max)})`,
      });
    }
    const id = `vrp-${asn}-${p.text}-${max}`;
    // Several trust anchors may vouch for the same triple; the first is kept, without a problem.
    if (seen.has(id)) return;
    seen.add(id);
    records.push({ id, asn, prefix: p.text, max_length: max, ta: text(r.ta), source_url: sourceUrl });
  });
  return { records, problems };
}

export type RpkiState = 'valid' | 'invalid' | 'not-found';

export interface RpkiValidation {
  state: RpkiState;
  /** The VRPs covering the route (RFC 6811's "Covered"): empty means not-found. */
  covering: VrpRecord[];
  /** The VRP that made it valid, if any. */
  matched: VrpRecord | null;
}

export interface VrpIndex {
  size: number;
  /**
   * RFC 6811 route origin validation of a route (`prefix`, origin AS). `origin` null is a route
   * whose origin cannot be told (a path ending in an AS_SET): it matches no VRP. AS0 VRPs (RFC
   * 7607) cover but never match.
   */
  validate(prefix: string, origin: number | null): RpkiValidation;
}

/** An index of VRPs by covering prefix: a validation does at most 33 or 129 lookups, whatever the number of VRPs. */
export function vrpIndex(vrps: readonly VrpRecord[]): VrpIndex {
  const byNet = new Map<string, VrpRecord[]>();
  const lengths = { 4: new Set<number>(), 6: new Set<number>() };
  for (const v of vrps) {
    const p = parsePrefix(v.prefix)!;
    const key = `${p.version}/${p.length}/${p.network}`;
    byNet.set(key, [...(byNet.get(key) ?? []), v]);
    lengths[p.version].add(p.length);
  }
  const sorted = { 4: [...lengths[4]].sort((a, b) => a - b), 6: [...lengths[6]].sort((a, b) => a - b) };
  return {
    size: vrps.length,
    validate(prefix, origin) {
      const route: IpPrefix | null = parsePrefix(prefix);
      if (!route) throw new RangeError(`not a prefix: ${JSON.stringify(prefix)}`);
      const covering: VrpRecord[] = [];
      for (const len of sorted[route.version]) {
        if (len > route.length) break;
        covering.push(...(byNet.get(`${route.version}/${len}/${truncate(route, len)}`) ?? []));
      }
      if (covering.length === 0) return { state: 'not-found', covering, matched: null };
      const matched =
        origin === null
          ? undefined
          : covering.find((v) => v.asn !== 0 && v.asn === origin && route.length <= v.max_length);
      return { state: matched ? 'valid' : 'invalid', covering, matched: matched ?? null };
    },
  };
}
