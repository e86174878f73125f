// Review finding F2: the 2048-character cap is checked on the URL as typed, but the canonical form stores the
// percent-encoded path. A URL of ~1,900 CJK characters passes the cap, expands to ~17,000 characters, and its
// insert fails on the unique btree index over canonical_url ("index row size exceeds btree maximum"): a 500 on
// both the membership path and the payment path (which has already created a checkout session by then).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { countRows, uniqueName } from './review-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Deterministic, incompressible-enough non-ASCII path: each CJK character becomes 9 characters once encoded. */
function longNonAsciiUrl(seed: number): string {
  let x = seed;
  let path = '';
  for (let i = 0; i < 1900; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    path += String.fromCodePoint(0x4e00 + (x % 0x5200));
  }
  return `https://long-${seed}.example/${path}`;
}

describe('submit: a URL whose canonical form is huge', () => {
  it('the typed URL is within the 2048-character cap but expands far beyond it', () => {
    const url = longNonAsciiUrl(1);
    expect(url.length).toBeLessThanOrEqual(2048);
    expect(new URL(url).href.length).toBeGreaterThan(10_000);
  });

  it('membership path: 400 invalid_request naming url (or accepted), never 500; no quota spent on refusal', async () => {
    const m = await t.member('member');
    const res = await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: { name: uniqueName(), url: longNonAsciiUrl(2) } });
    expect(res.status).not.toBe(500);
    expect([201, 400]).toContain(res.status);
    if (res.status === 400) {
      expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/^url/) } });
      expect(await countRows(t, 'quota_usage', m.accountId)).toBe(0);
    }
  });

  it('payment path: 400 invalid_request naming url (or 402), never 500', async () => {
    const m = await t.member('none');
    const res = await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: { name: uniqueName(), url: longNonAsciiUrl(3) } });
    expect(res.status).not.toBe(500);
    expect([400, 402]).toContain(res.status);
  });

  it('the list filter with the same URL answers 200 or 400, never 500', async () => {
    const m = await t.member('member');
    const res = await t.request(`/api/v1/sites?url=${encodeURIComponent(longNonAsciiUrl(4))}`, { key: m.key });
    expect([200, 400]).toContain(res.status);
  });
});
