import { describe, expect, it } from 'vitest';
import { clientGroup, prefix48Of } from '../../../src/rate-limits/client-group';

describe('clientGroup', () => {
  it('keeps IPv4 addresses (also IPv4-mapped) and groups IPv6 addresses by their /64', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    for (const same of [
      '2001:db8:1:2::1',
      '2001:0DB8:0001:0002:ffff:0:0:9',
      '[2001:db8:1:2::abcd]',
      '2001:db8:1:2:3:4:5:6%en0',
    ]) {
      expect(clientGroup(same), same).toBe('2001:db8:1:2::/64');
    }
    expect(clientGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientGroup('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything that is not an address as it is (never throws)', () => {
    for (const odd of ['unknown', '', '1:2:3', '1::2::3', '2001:db8:zz::1', '1:2:3:4:5:6:7:8:9'])
      expect(clientGroup(odd), odd).toBe(odd);
  });
});

describe('clientGroup, applied twice', () => {
  it('changes nothing the second time (the edge groups, and the sign-in verb groups what it is given again)', () => {
    for (const ip of ['203.0.113.7', '::ffff:203.0.113.7', '2001:db8:1:2::1', '::1', 'unknown']) {
      expect(clientGroup(clientGroup(ip)), ip).toBe(clientGroup(ip));
    }
  });
});

describe('prefix48Of', () => {
  it('names the /48 of a /64 group, keeping what came before it in an identifier', () => {
    expect(prefix48Of(clientGroup('2001:db8:1:2::abcd'))).toBe('2001:db8:1::/48');
    expect(prefix48Of(clientGroup('2001:db8:1:ffff::1'))).toBe('2001:db8:1::/48');
    expect(prefix48Of(clientGroup('2001:db8:2:2::1'))).toBe('2001:db8:2::/48');
    // 6to4: the /48 is the IPv4 address 192.0.2.1 the prefix is made of.
    expect(prefix48Of(clientGroup('2002:c000:201:7::1'))).toBe('2002:c000:201::/48');
    expect(prefix48Of(`request:ip:${clientGroup('2001:db8:1:2::abcd')}`)).toBe('request:ip:2001:db8:1::/48');
  });

  it('has none for IPv4 clients, accounts and labels', () => {
    for (const other of [
      '203.0.113.7',
      clientGroup('::ffff:203.0.113.7'),
      'unknown',
      '',
      crypto.randomUUID(),
      'email:a@b.example',
      '2001:db8:1:2::/48',
    ]) {
      expect(prefix48Of(other), other).toBeUndefined();
    }
  });
});
