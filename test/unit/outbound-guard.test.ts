/**
 * The outbound guard's judgement of one address (shared/adapters/outbound-address.ts `refusalOf`),
 * for the IPv6 forms that carry an IPv4 address (issue 34, item 6): each is refused whatever it carries,
 * and the refusal names a carried address that is not public. Sockets: test/integration/outbound.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../shared/adapters/outbound-address.js';
import { config } from '../../shared/config.js';
import { outboundPolicy } from '../../shared/domain/outbound-policy.js';

const closed = { allowLoopback: false };
const local = { allowLoopback: true };

describe('refusalOf: IPv6 forms that carry an IPv4 address', () => {
  it.each([
    // IPv4-compatible ::/96 (deprecated, RFC 4291), in the hex WHATWG URLs write and the dotted text Node resolves to.
    ['::7f00:1', 'loopback', '127.0.0.1', 'IPv4-compatible'],
    ['::127.0.0.1', 'loopback', '127.0.0.1', 'IPv4-compatible'],
    ['::a00:1', 'private', '10.0.0.1', 'IPv4-compatible'],
    ['::c0a8:10a', 'private', '192.168.1.10', 'IPv4-compatible'],
    ['::a9fe:a9fe', 'linkLocal', '169.254.169.254', 'IPv4-compatible'],
    // IPv4-mapped ::ffff:0:0/96, and IPv4-translated ::ffff:0:0:0/96 (RFC 6145).
    ['::ffff:7f00:1', 'loopback', '127.0.0.1', 'IPv4-mapped'],
    ['::ffff:10.0.0.1', 'private', '10.0.0.1', 'IPv4-mapped'],
    ['::ffff:0:7f00:1', 'loopback', '127.0.0.1', 'IPv4-translated'],
    ['::ffff:0:c0a8:10a', 'private', '192.168.1.10', 'IPv4-translated'],
    // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): the IPv4 address is the last 32 bits.
    ['64:ff9b::7f00:1', 'loopback', '127.0.0.1', 'NAT64'],
    ['64:ff9b::10.0.0.1', 'private', '10.0.0.1', 'NAT64'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal', '169.254.169.254', 'NAT64'],
    // 6to4 2002::/16 (RFC 3056): the IPv4 address is bits 16 to 47.
    ['2002:7f00:1::1', 'loopback', '127.0.0.1', '6to4'],
    ['2002:c0a8:10a::', 'private', '192.168.1.10', '6to4'],
    ['2002:a9fe:a9fe:1::1', 'linkLocal', '169.254.169.254', '6to4'],
    // Teredo 2001::/32 (RFC 4380): the server in bits 32 to 63, the client in the last 32 bits inverted.
    ['2001:0:a00:1::ffff', 'private', '10.0.0.1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', '127.0.0.1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:5601:56fe', 'linkLocal', '169.254.169.1', 'Teredo'],
  ])('refuses %s: it embeds a %s IPv4 address, %s (%s)', (address, range, ipv4, form) => {
    const refusal = refusalOf(address, closed);
    expect(refusal).toContain(`embeds a ${range} IPv4 address ${ipv4}`);
    expect(refusal).toContain(form);
    // Loopback allowed is 127.0.0.0/8 and ::1 as such: never loopback carried in another form.
    expect(refusalOf(address, local)).toBe(refusal);
  });

  it.each([
    ['::808:808', 'IPv4-compatible', '8.8.8.8'],
    ['::ffff:8.8.8.8', 'IPv4-mapped', '8.8.8.8'],
    ['::ffff:0:808:808', 'IPv4-translated', '8.8.8.8'],
    ['64:ff9b::808:808', 'NAT64', '8.8.8.8'],
    ['2002:808:808::1', '6to4', '8.8.8.8'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo', '65.54.227.120 and 8.8.8.8'],
  ])('refuses %s too, though the %s address it carries (%s) is public', (address, form, ipv4) => {
    const refusal = refusalOf(address, closed);
    expect(refusal).toContain(`embeds the IPv4 address`);
    expect(refusal).toContain(ipv4);
    expect(refusal).toContain(form);
    expect(refusal).toContain('never called');
  });

  it('refuses local-use NAT64 (64:ff9b:1::/48), whose IPv4 address sits where the operator puts it', () => {
    expect(refusalOf('64:ff9b:1::a00:1', closed)).toMatch(/embeds an IPv4 address \(local-use NAT64/);
  });

  it('keeps judging the rest as before: ::, ::1, site-local and unique-local refused, public unicast called', () => {
    expect(refusalOf('::', closed)).toMatch(/unspecified/);
    expect(refusalOf('::1', closed)).toMatch(/loopback/);
    expect(refusalOf('::1', local)).toBeNull();
    expect(refusalOf('127.0.0.1', local)).toBeNull();
    expect(refusalOf('fec0::1', closed)).toMatch(/deprecatedSiteLocal/);
    expect(refusalOf('fd00::1', closed)).toMatch(/uniqueLocal/);
    expect(refusalOf('fe80::1%eth0', closed)).toMatch(/linkLocal/);
    expect(refusalOf('2606:2800:220:1:248:1893:25c8:1946', closed)).toBeNull();
    expect(refusalOf('8.8.8.8', closed)).toBeNull();
    // Node's isIP decides what an address is: no shorthand IPv4.
    expect(refusalOf('127.1', local)).toMatch(/not an IP address/);
  });
});

describe('a loopback receiver refused', () => {
  it('says, in a local run, which setting would allow it; in AWS, only that it is not public', () => {
    const localRun = { ...outboundPolicy(), allowLoopback: false };
    expect(config.stage).toBe('local');
    expect(refusalOf('127.0.0.1', localRun)).toBe(
      '127.0.0.1 is a loopback address, not a public one (a local run calls receivers on this machine when started with OUTBOUND_ALLOW_LOOPBACK=true)',
    );
    // A private address is never allowed, so no setting is named.
    expect(refusalOf('10.0.0.1', localRun)).toBe('10.0.0.1 is a private address, not a public one');
    const stage = config.stage;
    try {
      (config as { stage: string }).stage = 'prod';
      expect(refusalOf('127.0.0.1', { ...outboundPolicy(), allowLoopback: false })).toBe(
        '127.0.0.1 is a loopback address, not a public one',
      );
    } finally {
      (config as { stage: string }).stage = stage;
    }
  });
});
