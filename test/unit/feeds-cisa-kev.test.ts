/** The CISA KEV parser against the real catalog (whole, and a trimmed copy), and lookups by CVE and product. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CISA_KEV_URL, kevIndex, parseCisaKev } from '../../shared/feeds/cisa-kev.js';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';

const KEV = readFileSync(
  new URL('../fixtures/feeds/cisa-kev/known_exploited_vulnerabilities.2025.08.25.trimmed.json', import.meta.url),
  'utf8',
);
type Raw = Record<string, unknown>;
const raw = () => JSON.parse(KEV) as { vulnerabilities: Raw[] } & Raw;

describe('parseCisaKev', () => {
  it('reads the whole catalog of 2025-08-25 as published: 1,404 entries, each CVE once, none refused', () => {
    const whole = gunzipSync(
      readFileSync(
        new URL('../fixtures/feeds/cisa-kev/known_exploited_vulnerabilities.2025.08.25.json.gz', import.meta.url),
      ),
    ).toString('utf8');
    const { records, problems, catalog } = parseCisaKev(whole, CISA_KEV_URL);
    expect(problems).toEqual([]);
    expect(catalog.count).toBe(1404);
    expect(records).toHaveLength(1404);
    expect(new Set(records.map((r) => r.id)).size).toBe(1404);
    const index = kevIndex(records);
    expect(index.byCve('cve-2021-44228')?.product).toBe('Log4j2');
    // Every entry the trimmed copy holds is in the whole, the same.
    for (const r of parseCisaKev(KEV, CISA_KEV_URL).records) expect(index.byCve(r.id)).toEqual(r);
    expect(index.byProduct('microsoft windows').length).toBeGreaterThan(100);
  });

  it('reads every entry of the real catalog and its header', () => {
    const { records, problems, catalog } = parseCisaKev(KEV, CISA_KEV_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(17);
    expect(catalog).toEqual({
      title: 'CISA Catalog of Known Exploited Vulnerabilities',
      catalog_version: '2025.08.25',
      date_released: '2025-08-25T17:04:19.9796Z',
      count: 1404,
    });
    expect(records.map((r) => r.id)).toEqual(raw().vulnerabilities.map((v) => v.cveID));
  });

  it('keeps each field of an entry as CISA published it', () => {
    const { records } = parseCisaKev(KEV, CISA_KEV_URL);
    for (const cve of ['CVE-2021-44228', 'CVE-2025-8876', 'CVE-2025-48384']) {
      const v = raw().vulnerabilities.find((e) => e.cveID === cve)!;
      expect(records.find((r) => r.id === cve)).toEqual({
        id: cve,
        vendor_project: v.vendorProject,
        product: v.product,
        vulnerability_name: v.vulnerabilityName,
        date_added: v.dateAdded,
        short_description: v.shortDescription,
        required_action: v.requiredAction,
        due_date: v.dueDate,
        known_ransomware_campaign_use: v.knownRansomwareCampaignUse,
        notes: v.notes,
        cwes: v.cwes,
        source_url: CISA_KEV_URL,
      });
    }
    expect(records.find((r) => r.id === 'CVE-2021-44228')).toMatchObject({
      vendor_project: 'Apache',
      product: 'Log4j2',
      date_added: '2021-12-10',
      due_date: '2021-12-24',
      known_ransomware_campaign_use: 'Known',
      cwes: ['CWE-20', 'CWE-400', 'CWE-502'],
    });
    expect(records.find((r) => r.id === 'CVE-2025-8876')!.cwes).toEqual([]);
    // Escaped characters in the published JSON (\u2019, \/) come out as text.
    expect(records[0]!.short_description).toContain('Git’s inconsistent handling');
    expect(records[0]!.notes).toContain('https://github.com/git/git/security/advisories/GHSA-vwqx-4fm8-6qc9');
  });

  it('keys each entry by its CVE on every poll', () => {
    const ids = () => parseCisaKev(KEV, CISA_KEV_URL).records.map((r) => r.id);
    expect(ids()).toEqual(ids());
    expect(new Set(ids()).size).toBe(17);
  });

  it('skips a broken entry, names it, and keeps the rest', () => {
    const doc = raw();
    const v = doc.vulnerabilities;
    delete v[0]!.product;
    v[1]!.dueDate = '15/09/2025';
    v[2]!.cveID = 'CVE-24-1';
    delete v[3]!.cveID;
    v[5] = { ...v[4]!, cveID: (v[4]!.cveID as string).toLowerCase() };
    v[6]!.cwes = ['CWE-78', 78];
    const { records, problems } = parseCisaKev(JSON.stringify(doc), CISA_KEV_URL);
    expect(records).toHaveLength(11);
    expect(problems.map((p) => [p.entry, p.id, p.reason])).toEqual([
      [0, 'CVE-2025-48384', 'no product'],
      [1, 'CVE-2024-8068', 'dueDate is not a YYYY-MM-DD date ("15/09/2025")'],
      [2, 'CVE-24-1', 'cveID is not a CVE id ("CVE-24-1")'],
      [3, null, 'no cveID'],
      [5, 'CVE-2025-54948', 'the same CVE twice'],
      [6, 'CVE-2025-8875', 'cwes is not a list of CWE ids (["CWE-78",78])'],
    ]);
  });

  it('throws for a body that is not the catalog', () => {
    expect(() => parseCisaKev('<!doctype html><html><title>Access Denied</title></html>', CISA_KEV_URL)).toThrow(
      /HTML/,
    );
    expect(() => parseCisaKev(JSON.stringify(raw().vulnerabilities), CISA_KEV_URL)).toThrow(FeedFormatError);
    expect(() => parseCisaKev('{"type":"FeatureCollection","features":[]}', CISA_KEV_URL)).toThrow(/catalogVersion/);
    expect(() => parseCisaKev(KEV.slice(0, 2000), CISA_KEV_URL)).toThrow(/not JSON/);
  });
});

describe('kevIndex', () => {
  const index = kevIndex(parseCisaKev(KEV, CISA_KEV_URL).records);

  it('finds an entry by CVE id in any case', () => {
    expect(index.size).toBe(17);
    expect(index.byCve('CVE-2021-44228')!.product).toBe('Log4j2');
    expect(index.byCve(' cve-2021-44228 ')!.id).toBe('CVE-2021-44228');
    expect(index.byCve('CVE-2021-45046')).toBeUndefined();
  });

  it('finds entries by vendor, product or both, by substring', () => {
    const ids = (q: string) => index.byProduct(q).map((r) => r.id);
    expect(ids('log4j')).toEqual(['CVE-2021-44228']);
    expect(ids('Apache')).toEqual(['CVE-2024-38475', 'CVE-2021-44228']);
    expect(ids('apache  log4j')).toEqual(['CVE-2021-44228']);
    expect(ids('identity services')).toEqual(['CVE-2025-20337', 'CVE-2025-20281']);
    expect(ids('Microsoft')).toEqual(['CVE-2017-0144', 'CVE-2021-26855']);
    expect(ids('netscaler')).toEqual(['CVE-2023-4966']);
    expect(ids('nginx')).toEqual([]);
    expect(ids('  ')).toEqual([]);
  });
});
