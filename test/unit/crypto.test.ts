import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomToken, sha256Hex, timingSafeEqual } from '../../src/crypto';
import { propertyRuns } from '../helpers/property-runs';

const webCryptoHex = async (text: string) =>
  Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('agrees with Web Crypto on any string, multi-byte characters included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
        expect(await sha256Hex(text)).toBe(await webCryptoHex(text));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('randomToken', () => {
  it('gives the requested length in base62, different every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => randomToken(22)));
    expect(tokens.size).toBe(200);
    for (const t of tokens) expect(t).toMatch(/^[0-9A-Za-z]{22}$/);
  });
});

describe('timingSafeEqual', () => {
  it('is true only for equal strings', () => {
    expect(timingSafeEqual('token-abc', 'token-abc')).toBe(true);
    expect(timingSafeEqual('token-abc', 'token-abd')).toBe(false);
    expect(timingSafeEqual('token-abc', 'token-ab')).toBe(false);
    expect(timingSafeEqual('', '')).toBe(true);
  });
});

describe('randomToken statistics', () => {
  it('uses all 62 characters about evenly across pool refills (no byte handed out twice)', () => {
    const counts = new Map<string, number>();
    const tokens = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const t = randomToken(22); // 2,000 × 22 chars: ~11 refills of the 4 KiB pool
      tokens.add(t);
      for (const ch of t) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(tokens.size).toBe(2_000);
    expect(counts.size).toBe(62);
    const expected = (2_000 * 22) / 62; // ≈ 710
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.3);
  });
});
