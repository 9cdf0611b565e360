/** Indicator lists: STIX bundles from OASIS's published examples, and a real MISP CSV export from Citizen Lab. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import {
  indicatorIndex,
  parseCsvIndicators,
  parseStixIndicators,
  stixPatternValues,
} from '../../shared/feeds/indicators.js';

const read = (f: string) => readFileSync(new URL(`../fixtures/feeds/indicators/${f}`, import.meta.url), 'utf8');
const C2 = read('stix21-indicators-for-C2-with-COA.json');
const APT1 = read('stix21-apt1.json');
const POISON_IVY = read('stix21-poisonivy.json');
const URL_20 = read('stix20-indicator-for-malicious-URL.json');
const MISP = read('misp-csv.stealth-falcon.csv');
const SRC = 'tenant-upload://indicators';

describe('parseStixIndicators', () => {
  it('reads an IP and a SHA-256 indicator of a STIX 2.1 bundle, and passes over its other objects', () => {
    const { records, problems } = parseStixIndicators(C2, SRC);
    expect(problems).toEqual([]);
    expect(records).toEqual([
      {
        id: 'ip|10.0.0.0|indicator--53fe3b22-0201-47cf-85d0-97c02164528d',
        type: 'ip',
        value: '10.0.0.0',
        valid_from: '2014-05-08T09:00:00.000Z',
        valid_until: null,
        labels: ['malicious-activity'],
        description: 'Test description.',
        for_detection: true,
        source: {
          format: 'stix',
          object_id: 'indicator--53fe3b22-0201-47cf-85d0-97c02164528d',
          name: 'IP Address for known C2 channel',
        },
        source_url: SRC,
      },
      expect.objectContaining({
        type: 'sha256',
        value: 'ef537f25c895bfa782526529a9b63d97aa631564d5d789c2b765448c8635fb6c',
        source: expect.objectContaining({ name: 'File hash for Poison Ivy variant' }),
      }),
    ]);
  });

  it('reads networks, domains and MD5s of the APT1 report, and names the certificate patterns it cannot list', () => {
    const { records, problems } = parseStixIndicators(APT1, SRC);
    expect(records.map((r) => `${r.type}:${r.value}`)).toEqual([
      'cidr:223.166.0.0/15',
      'cidr:58.246.0.0/15',
      'cidr:112.64.0.0/15',
      'cidr:139.226.0.0/15',
      'domain:hugesoft.org',
      'domain:arrowservice.net',
      'domain:msnhome.org',
      'md5:001dd76872d80801692ff942308c64e6',
      'md5:002325a0a67fded0381b5648d7fe9b8e',
      'md5:00dbb9e1c09dbdafb360f3163ba5a3de',
    ]);
    // Raw: [x509-certificate:issuer = 'CN=WEBMAIL' AND x509-certificate:serial_number = '4c:0b:…']
    expect(problems.map((p) => p.reason)).toEqual(
      Array(2).fill('pattern combines values with AND: not a list of values each an indicator alone'),
    );
  });

  it('splits OR patterns into one indicator per value, and names the real entries it cannot read', () => {
    const { records, problems } = parseStixIndicators(POISON_IVY, SRC);
    expect(records).toHaveLength(63);
    // Raw: [domain-name:value = 'www.webserver.dynssl.com' OR ipv4-addr:value = '113.10.246.30' OR … '202.65.222.45']
    expect(
      records
        .filter((r) => r.source.object_id === 'indicator--329ae6e9-25bd-49e8-89d1-aae4ca52e4a7')
        .map((r) => r.value),
    ).toEqual([
      'www.webserver.dynssl.com',
      '113.10.246.30',
      '219.90.112.203',
      '75.126.95.138',
      '219.90.112.197',
      '202.65.222.45',
    ]);
    expect(problems.map((p) => [p.entry, p.reason])).toEqual([
      [42, 'not a domain name ("domain autuo.xicp.net")'], // as published: the word "domain" inside the value
      [43, 'object path file:name is not kept (IPs, domains, URLs, e-mail addresses and file hashes are)'],
      [57, 'object path file:name is not kept (IPs, domains, URLs, e-mail addresses and file hashes are)'],
    ]);
  });

  it('reads a STIX 2.0 bundle (no pattern_type; `labels` for the indicator type)', () => {
    expect(parseStixIndicators(URL_20, SRC).records).toEqual([
      expect.objectContaining({
        type: 'url',
        value: 'http://x4z9arb.cn/4712/',
        labels: ['malicious-activity'],
        valid_from: '2014-06-29T13:49:37.079Z',
      }),
    ]);
  });

  it('names an indicator it cannot take: another pattern language, revoked, a bad date, a non-equality', () => {
    const doc = JSON.parse(C2);
    const [a, b] = doc.objects.filter((o: { type: string }) => o.type === 'indicator');
    doc.objects = [
      { ...a, pattern_type: 'snort', pattern: 'alert tcp any any -> any 80' },
      { ...a, revoked: true },
      { ...b, valid_from: 'yesterday' },
      { ...b, pattern: "[url:value MATCHES '^http://evil']" },
      { ...a, pattern: "[ipv4-addr:value = '10.0.0.999']" },
      b,
    ];
    const { records, problems } = parseStixIndicators(JSON.stringify(doc), SRC);
    expect(records.map((r) => r.type)).toEqual(['sha256']);
    expect(problems.map((p) => p.reason)).toEqual([
      'pattern_type "snort" is not read (only STIX patterns)',
      'revoked by its producer',
      'valid_from is not a timestamp ("yesterday")',
      'pattern uses MATCHES, not an equality: not a list of values',
      'not an IP address ("10.0.0.999")',
    ]);
  });

  it('gives the same ids on every read, and throws for a body that is not a bundle', () => {
    expect(parseStixIndicators(POISON_IVY, SRC).records.map((r) => r.id)).toEqual(
      parseStixIndicators(POISON_IVY, SRC).records.map((r) => r.id),
    );
    expect(() => parseStixIndicators(MISP, SRC)).toThrow(/not JSON/);
    expect(() => parseStixIndicators('{"type":"indicator","id":"indicator--x"}', SRC)).toThrow(FeedFormatError);
  });

  it('reads pattern values with escaped quotes', () => {
    expect(stixPatternValues("[url:value = 'http://a.example/it\\'s']")).toEqual([
      { path: 'url:value', value: "http://a.example/it's" },
    ]);
    expect(stixPatternValues("[ipv4-addr:value = '198.51.100.1'] OR [ipv4-addr:value = '198.51.100.2']")).toHaveLength(
      2,
    );
    expect(stixPatternValues("[ipv4-addr:value = '198.51.100.1'] WITHIN 300 SECONDS")).toMatch(/WITHIN/);
  });
});

describe('parseCsvIndicators', () => {
  it('reads a real MISP attribute export: types mapped, date as valid_from, to_ids kept as for_detection', () => {
    const { records, problems } = parseCsvIndicators(MISP, SRC);
    expect(records).toHaveLength(33);
    // Raw: 3813bc78-21d9-40a2-b76e-61016eb71ccb,8,Network activity,domain,"adhostingcache.com","",1,20161108
    expect(records.find((r) => r.value === 'adhostingcache.com')).toEqual({
      id: 'domain|adhostingcache.com|csv',
      type: 'domain',
      value: 'adhostingcache.com',
      valid_from: '2016-11-08T00:00:00.000Z',
      valid_until: null,
      labels: ['Network activity'],
      description: null,
      for_detection: true,
      source: { format: 'misp-csv', object_id: '3813bc78-21d9-40a2-b76e-61016eb71ccb', name: null },
      source_url: SRC,
    });
    // Raw: …,ip-dst,"95.215.44.37","IP linked to adhostingcache.com",0,20161108
    expect(records.find((r) => r.type === 'ip')).toMatchObject({
      value: '95.215.44.37',
      description: 'IP linked to adhostingcache.com',
      for_detection: false,
    });
    // "External analysis,link" is a URL too (the report's own address).
    expect(records.filter((r) => r.type === 'url')).toHaveLength(11); // ten `url` rows and one `link`
    expect(problems).toEqual([
      {
        entry: 9,
        id: null,
        reason: 'type "threat-actor" is not kept (ip, cidr, domain, url, sha256, sha1, md5, email)',
      },
    ]);
  });

  it('reads the plain type,value[,description] form, refanging values (rows of the same export)', () => {
    const body = [
      'type,value,description',
      'domain,adhostingcache[.]com,stage one',
      'ip,95.215.44.37,',
      'url,hxxp://aax[.]me/a6faa,Link sent in a phishing email',
      'cidr,223.166.0.0/15,',
      'md5,87E1DF6F36B96B56186444E37E2A1EF5',
      'ip,95.215.44.37,again',
      'sha256,not-a-hash,',
    ].join('\r\n');
    const { records, problems } = parseCsvIndicators(body, SRC);
    expect(records.map((r) => [r.id, r.source.format, r.description])).toEqual([
      ['domain|adhostingcache.com|csv', 'csv', 'stage one'],
      ['ip|95.215.44.37|csv', 'csv', null],
      ['url|http://aax.me/a6faa|csv', 'csv', 'Link sent in a phishing email'],
      ['cidr|223.166.0.0/15|csv', 'csv', null],
      ['md5|87e1df6f36b96b56186444e37e2a1ef5|csv', 'csv', null],
    ]);
    expect(problems.map((p) => [p.entry, p.reason])).toEqual([
      [6, 'the same indicator twice'],
      [7, 'not a SHA256 hash ("not-a-hash")'],
    ]);
  });

  it('throws for a body without a type,value header', () => {
    expect(() => parseCsvIndicators(C2, SRC)).toThrow(/not CSV/);
    expect(() => parseCsvIndicators('indicator,kind\n1.2.3.4,ip', SRC)).toThrow(/header naming "type" and "value"/);
    expect(parseCsvIndicators(MISP, SRC).records.map((r) => r.id)).toEqual(
      parseCsvIndicators(MISP, SRC).records.map((r) => r.id),
    );
  });
});

describe('indicatorIndex', () => {
  const all = [
    ...parseStixIndicators(APT1, SRC).records,
    ...parseStixIndicators(POISON_IVY, SRC).records,
    ...parseCsvIndicators(MISP, SRC).records,
  ];
  const index = indicatorIndex(all);

  it('finds an IP listed alone, in several indicators, or inside a listed network', () => {
    expect(index.byIp('113.10.246.30').length).toBeGreaterThan(1);
    expect(index.byIp('95.215.44.37').map((r) => r.id)).toEqual(['ip|95.215.44.37|csv']);
    expect(index.byIp('223.167.255.1').map((r) => r.value)).toEqual(['223.166.0.0/15']);
    expect(index.byIp('223.168.0.1')).toEqual([]);
    expect(index.byIp('not an ip')).toEqual([]);
  });

  it('finds a domain and its subdomains, not its parents', () => {
    expect(index.byDomain('HugeSoft.org').map((r) => r.value)).toEqual(['hugesoft.org']);
    expect(index.byDomain('mail.hugesoft.org').map((r) => r.value)).toEqual(['hugesoft.org']);
    expect(index.byDomain('org')).toEqual([]);
    expect(index.byValue('md5', '001DD76872D80801692FF942308C64E6')).toHaveLength(1);
  });

  it('leaves out indicators not valid at the given time', () => {
    const expired = all.map((r) =>
      r.value === 'hugesoft.org' ? { ...r, valid_until: '2016-01-01T00:00:00.000Z' } : r,
    );
    expect(indicatorIndex(expired, new Date('2020-01-01T00:00:00Z')).byDomain('hugesoft.org')).toEqual([]);
    expect(indicatorIndex(expired, new Date('2015-06-01T00:00:00Z')).byDomain('hugesoft.org')).toHaveLength(1);
    expect(indicatorIndex(all, new Date('2010-01-01T00:00:00Z')).byDomain('hugesoft.org')).toEqual([]); // before valid_from
  });
});
