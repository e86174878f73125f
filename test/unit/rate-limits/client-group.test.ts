import { describe, expect, it } from 'vitest';
import { clientGroup } from '../../../src/rate-limits/client-group';

describe('clientGroup', () => {
  it('keeps IPv4 addresses (also IPv4-mapped) and groups IPv6 addresses by their /64', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    for (const same of ['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff:0:0:9', '[2001:db8:1:2::abcd]', '2001:db8:1:2:3:4:5:6%en0']) {
      expect(clientGroup(same), same).toBe('2001:db8:1:2::/64');
    }
    expect(clientGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientGroup('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything that is not an address as it is (never throws)', () => {
    for (const odd of ['unknown', '', '1:2:3', '1::2::3', '2001:db8:zz::1', '1:2:3:4:5:6:7:8:9']) expect(clientGroup(odd), odd).toBe(odd);
  });
});

describe('clientGroup, applied twice', () => {
  it('changes nothing the second time (the edge groups, and the sign-in verb groups what it is given again)', () => {
    for (const ip of ['203.0.113.7', '::ffff:203.0.113.7', '2001:db8:1:2::1', '::1', 'unknown']) {
      expect(clientGroup(clientGroup(ip)), ip).toBe(clientGroup(ip));
    }
  });
});
