import { describe, expect, it } from 'vitest';
import { challengeReference, clientGroup, generateSignInCode, normalizeEmail, signInSecret } from '../../../src/accounts/sign-in';
import { loadConfig } from '../../../src/config';

describe('generateSignInCode', () => {
  it('gives 6 digits, leading zeros kept, and spreads over the whole range', () => {
    const codes = Array.from({ length: 2000 }, generateSignInCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1990); // collisions among 2000 of 10^6 are rare (~2 expected)
    const firstDigits = new Set(codes.map((c) => c[0]));
    expect(firstDigits.size).toBe(10); // includes '0': padded, not dropped
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases plausible addresses and refuses the rest', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'a b@example.com', '<a>@example.com', 'a"@x.io', `${'a'.repeat(250)}@x.io`]) {
      expect(normalizeEmail(bad), bad).toBeUndefined();
    }
  });
});

describe('signInSecret', () => {
  it('depends on a server-only secret', () => {
    const a = signInSecret(loadConfig({ ADMIN_TOKEN: 'a'.repeat(32) }));
    const b = signInSecret(loadConfig({ ADMIN_TOKEN: 'b'.repeat(32) }));
    expect(a).not.toBe(b);
  });
});

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

describe('challengeReference', () => {
  it('gives four capital letters (never digits, so it cannot be taken for the code)', () => {
    expect(challengeReference('00ff7a10' + '0'.repeat(56))).toMatch(/^[A-HJ-NP-Z]{4}$/);
    expect(challengeReference('0123456789abcdef')).not.toBe(challengeReference('fedcba9876543210'));
  });
});
