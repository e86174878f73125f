import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAddress, checkAddresses } from '../../../src/crawler/address-policy';
import { propertyRuns } from '../../helpers/property-runs';

const strict = { allowPrivate: false };
const relaxed = { allowPrivate: true };

describe('checkAddress', () => {
  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001:80b::200e', '[2606:4700::1111]'])(
    'allows public unicast %s',
    (address) => {
      expect(checkAddress(address, strict)).toEqual({ allowed: true });
    },
  );

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.0.10', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.0.1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fec0::1', 'SiteLocal'],
    ['ff02::1', 'multicast'],
    ['::7f00:1', 'non-global'],
    ['2002:a00:1::', '6to4'],
    ['2002:5db8:d822::', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'embeds 127.0.0.1'],
    ['64:ff9b::a00:1', 'embeds 10.0.0.1'],
    ['not-an-ip', 'not a canonical IP address'],
    ['', 'not a canonical IP address'],
    ['0177.0.0.1', 'not a canonical IP address'],
    ['2130706433', 'not a canonical IP address'],
    ['127.1', 'not a canonical IP address'],
    ['0x7f.0.0.1', 'not a canonical IP address'],
    ['8.8.8.08', 'not a canonical IP address'],
    ['::ffff:0177.0.0.1', 'not a canonical IP address'],
    ['1.2.3.4.5', 'not a canonical IP address'],
  ])('refuses %s (%s)', (address, reasonPart) => {
    const verdict = checkAddress(address, strict);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(reasonPart);
  });

  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
  ])('allows loopback and private %s only with allowPrivate', (address) => {
    expect(checkAddress(address, strict).allowed).toBe(false);
    expect(checkAddress(address, relaxed)).toEqual({ allowed: true });
  });

  it.each([
    '0177.0.0.1',
    '2130706433',
    '169.254.169.254',
    '100.100.100.200',
    'fd00:ec2::254',
    '169.254.1.1',
    'fe80::1',
    '224.0.0.1',
    '0.0.0.0',
    '::',
    '255.255.255.255',
  ])('refuses %s even with allowPrivate', (address) => {
    expect(checkAddress(address, relaxed).allowed).toBe(false);
  });
});

describe('checkAddresses', () => {
  it('refuses the whole answer when any one address is refused', () => {
    expect(checkAddresses(['93.184.216.34', '10.0.0.1'], strict).allowed).toBe(false);
    expect(checkAddresses(['10.0.0.1', '93.184.216.34'], strict).allowed).toBe(false);
    expect(checkAddresses(['93.184.216.34', '2606:4700::1111'], strict)).toEqual({ allowed: true });
  });

  it('refuses an empty answer', () => {
    expect(checkAddresses([], strict).allowed).toBe(false);
  });
});

describe('IPv4 embedded in IPv6 is judged like the IPv4 address itself', () => {
  const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);

  it('for IPv4-mapped and well-known NAT64 forms, with and without allowPrivate', () => {
    fc.assert(
      fc.property(ipv4, fc.boolean(), ([a, b, c, d], allowPrivate) => {
        const options = { allowPrivate };
        const plain = checkAddress(`${a}.${b}.${c}.${d}`, options).allowed;
        expect(checkAddress(`::ffff:${a}.${b}.${c}.${d}`, options).allowed).toBe(plain);
        expect(checkAddress(`::ffff:${hex(a, b)}:${hex(c, d)}`, options).allowed).toBe(plain);
        expect(checkAddress(`64:ff9b::${hex(a, b)}:${hex(c, d)}`, options).allowed).toBe(plain);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('while 6to4 and Teredo forms are refused whatever they embed', () => {
    fc.assert(
      fc.property(ipv4, ([a, b, c, d]) => {
        expect(checkAddress(`2002:${hex(a, b)}:${hex(c, d)}::1`, relaxed).allowed).toBe(false);
        expect(checkAddress(`2001:0:${hex(a, b)}:${hex(c, d)}::1`, relaxed).allowed).toBe(false);
      }),
    );
  });

  it('every address in 127/8, 10/8 and 169.254/16 is refused without allowPrivate', () => {
    fc.assert(
      fc.property(fc.constantFrom(127, 10, 169), fc.nat(255), fc.nat(255), fc.nat(255), (first, b, c, d) => {
        const second = first === 169 ? 254 : b;
        expect(checkAddress(`${first}.${second}.${c}.${d}`, strict).allowed).toBe(false);
      }),
    );
  });
});
