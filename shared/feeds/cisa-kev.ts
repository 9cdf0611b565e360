/**
 * CISA's Known Exploited Vulnerabilities catalog, parsed from its JSON
 * (schema: https://github.com/cisagov/kev-data/blob/main/known_exploited_vulnerabilities_schema.json),
 * and a pure lookup over it by CVE id and by vendor or product.
 */
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, readJson, text } from './feed-document.js';

export const CISA_KEV_URL = 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json';
export const CISA_KEV_DESCRIPTION =
  "CISA's catalog of Known Exploited Vulnerabilities: CVEs exploited in the wild, with vendor, product, the action required and its due date for US federal agencies, and whether ransomware campaigns are known to use them. CC0 1.0.";

export interface KevRecord {
  /** The CVE id, upper case (`CVE-2021-44228`): one record per CVE, the same on every poll. */
  id: string;
  vendor_project: string;
  product: string;
  vulnerability_name: string;
  /** YYYY-MM-DD. */
  date_added: string;
  short_description: string;
  required_action: string;
  /** YYYY-MM-DD: the BOD 22-01 deadline for US federal agencies. */
  due_date: string;
  /** `Known` or `Unknown` (CISA lacks confirmation); null when the entry omits it. */
  known_ransomware_campaign_use: string | null;
  notes: string | null;
  cwes: string[];
  source_url: string;
}

export interface KevCatalog {
  title: string | null;
  catalog_version: string;
  date_released: string;
  /** The catalog's own count, as published (a trimmed or partial copy may hold fewer entries). */
  count: number | null;
}

const FEED = 'CISA KEV';
const CVE = /^CVE-\d{4}-\d{4,19}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CWE = /^CWE-\d+$/;
const REQUIRED = ['vendorProject', 'product', 'vulnerabilityName', 'shortDescription', 'requiredAction'] as const;

function vulnerability(v: Record<string, unknown>, id: string, sourceUrl: string): KevRecord | string {
  for (const field of REQUIRED) if (!text(v[field])) return `no ${field}`;
  for (const field of ['dateAdded', 'dueDate'] as const) {
    if (typeof v[field] !== 'string' || !DATE.test(v[field]))
      return `${field} is not a YYYY-MM-DD date (${JSON.stringify(v[field])})`;
  }
  const cwes = v.cwes ?? [];
  if (!Array.isArray(cwes) || !cwes.every((c) => typeof c === 'string' && CWE.test(c)))
    return `cwes is not a list of CWE ids (${JSON.stringify(v.cwes)})`;
  return {
    id,
    vendor_project: v.vendorProject as string,
    product: v.product as string,
    vulnerability_name: v.vulnerabilityName as string,
    date_added: v.dateAdded as string,
    short_description: v.shortDescription as string,
    required_action: v.requiredAction as string,
    due_date: v.dueDate as string,
    known_ransomware_campaign_use: text(v.knownRansomwareCampaignUse),
    notes: text(v.notes),
    cwes: cwes as string[],
    source_url: sourceUrl,
  };
}

/** The catalog's entries, one per CVE; throws FeedFormatError if the body is not the KEV catalog. */
export function parseCisaKev(body: string, sourceUrl: string): FeedParse<KevRecord> & { catalog: KevCatalog } {
  const doc = readJson(body, FEED);
  if (!isObject(doc) || !Array.isArray(doc.vulnerabilities) || !text(doc.catalogVersion)) {
    throw new FeedFormatError(FEED, 'expected the catalog object with catalogVersion and a vulnerabilities array');
  }
  const catalog: KevCatalog = {
    title: text(doc.title),
    catalog_version: doc.catalogVersion as string,
    date_released: text(doc.dateReleased) ?? '',
    count: typeof doc.count === 'number' ? doc.count : null,
  };
  const records: KevRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  doc.vulnerabilities.forEach((v: unknown, entry) => {
    const raw = isObject(v) ? text(v.cveID) : null;
    const id = raw ? raw.trim().toUpperCase() : null;
    if (!isObject(v) || !id) return problems.push({ entry, id: null, reason: 'no cveID' });
    if (!CVE.test(id))
      return problems.push({ entry, id: raw, reason: `cveID is not a CVE id (${JSON.stringify(raw)})` });
    if (seen.has(id)) return problems.push({ entry, id, reason: 'the same CVE twice' });
    const r = vulnerability(v, id, sourceUrl);
    if (typeof r === 'string') return problems.push({ entry, id, reason: r });
    seen.add(id);
    records.push(r);
  });
  return { records, problems, catalog };
}

export interface KevIndex {
  readonly size: number;
  /** The entry for a CVE id, in any case and with surrounding spaces ignored. */
  byCve(cveId: string): KevRecord | undefined;
  /**
   * Entries whose "vendor product" contains the words given, case-insensitively: `log4j`,
   * `Apache`, `apache log4j`, `exchange server`. Catalog order; nothing for an empty query.
   */
  byProduct(query: string): KevRecord[];
}

const fold = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

export function kevIndex(records: readonly KevRecord[]): KevIndex {
  const cves = new Map(records.map((r) => [r.id, r]));
  const names = records.map((r) => [fold(`${r.vendor_project} ${r.product}`), r] as const);
  return {
    size: cves.size,
    byCve: (cveId) => cves.get(cveId.trim().toUpperCase()),
    byProduct: (query) => {
      const q = fold(query);
      return q ? names.filter(([name]) => name.includes(q)).map(([, r]) => r) : [];
    },
  };
}
