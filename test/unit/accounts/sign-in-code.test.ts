import { describe, expect, it } from 'vitest';
import { challengeReference, generateSignInCode, normalizeEmail, signInSecret } from '../../../src/accounts/sign-in';
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
    for (const bad of [
      '',
      'ada',
      'ada@',
      '@example.com',
      'ada@example',
      'a b@example.com',
      '<a>@example.com',
      'a"@x.io',
      `${'a'.repeat(250)}@x.io`,
    ]) {
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

  it('never falls back to a constant: the Stripe secret is not it, and without ADMIN_TOKEN (local mode only) it is random per process', () => {
    const withStripeOnly = signInSecret(loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_known_to_stripe_too' }));
    expect(withStripeOnly).not.toContain('whsec_known_to_stripe_too');
    expect(withStripeOnly).not.toBe('tooldir-sign-in-v1:');
    expect(withStripeOnly).toMatch(/^tooldir-sign-in-v1:[0-9A-Za-z]{43}$/);
    // Stable within the process: a code issued a minute ago must still verify.
    expect(signInSecret(loadConfig({}))).toBe(withStripeOnly);
  });
});

describe('challengeReference', () => {
  it('gives four capital letters (never digits, so it cannot be taken for the code)', () => {
    expect(challengeReference('00ff7a10' + '0'.repeat(56))).toMatch(/^[A-HJ-NP-Z]{4}$/);
    expect(challengeReference('0123456789abcdef')).not.toBe(challengeReference('fedcba9876543210'));
  });
});
