import { describe, expect, it } from 'vitest';
import { MAX_MENTIONS, mentionsOf, normaliseDomain, normaliseIp } from '../../shared/domain/events/mentions.js';

describe('mentionsOf', () => {
  it('names the sensor, the MMSI, and addresses anywhere in the payload three levels deep', () => {
    const mentions = mentionsOf({
      sensor_id: 'cam-7',
      payload: {
        mmsi: 235009802,
        source_ip: '203.0.113.9',
        net: { peers: ['2001:DB8::1', '::ffff:198.51.100.4'] },
        deep: { a: { b: { c: '192.0.2.1' } } },
      },
    });
    expect(mentions).toEqual([
      { type: 'sensor', value: 'cam-7' },
      { type: 'mmsi', value: '235009802' },
      { type: 'ip', value: '203.0.113.9' },
      { type: 'ip', value: '2001:db8::1' },
      { type: 'ip', value: '198.51.100.4' },
    ]);
  });

  it('takes domains only where a key names a host, a URL or an email, and never a file name or free text', () => {
    const mentions = mentionsOf({
      sensor_id: null,
      payload: {
        hostname: 'Badhost.Example.ORG.',
        file: 'report.pdf',
        note: 'see evil.example.com',
        callback_url: 'https://c2.example.net:8443/beacon?x=1',
        link: 'http://[2001:db8::7]/x',
        sender: 'ops@mail.example.co.uk',
        domains: ['a.example.com', 'not a host'],
      },
    });
    expect(mentions).toEqual([
      { type: 'domain', value: 'badhost.example.org' },
      { type: 'domain', value: 'c2.example.net' },
      { type: 'ip', value: '2001:db8::7' },
      { type: 'domain', value: 'mail.example.co.uk' },
      { type: 'domain', value: 'a.example.com' },
    ]);
  });

  it('names each entity once, and at most MAX_MENTIONS', () => {
    const ips = Array.from({ length: 40 }, (_, i) => `10.0.0.${i}`);
    expect(mentionsOf({ sensor_id: null, payload: { a: '10.0.0.1', b: '10.0.0.1' } })).toHaveLength(1);
    expect(mentionsOf({ sensor_id: null, payload: { ips } })).toHaveLength(MAX_MENTIONS);
  });

  it('refuses MMSIs that are not nine digits', () => {
    expect(mentionsOf({ sensor_id: null, payload: { mmsi: '12345' } })).toEqual([]);
    expect(mentionsOf({ sensor_id: null, payload: { mmsi: 2.5 } })).toEqual([]);
    expect(mentionsOf({ sensor_id: null, payload: { mmsi: '002190000' } })).toEqual([
      { type: 'mmsi', value: '002190000' },
    ]);
  });
});

describe('normalisers', () => {
  it('keep addresses and host names in one form, and refuse the rest', () => {
    expect(normaliseIp(' 8.8.8.8 ')).toBe('8.8.8.8');
    expect(normaliseIp('2001:4860:4860::8888'.toUpperCase())).toBe('2001:4860:4860::8888');
    expect(normaliseIp('999.1.1.1')).toBeNull();
    expect(normaliseDomain('Example.COM.')).toBe('example.com');
    expect(normaliseDomain('localhost')).toBeNull();
    expect(normaliseDomain('1.2.3.4')).toBeNull();
    expect(normaliseDomain('a..b.com')).toBeNull();
  });
});
