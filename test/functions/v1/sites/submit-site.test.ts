import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueUrl, uniqueName } from '../../../helpers/test-app';
import { countRows, expectErrorBody, rawSubmit } from '../../../helpers/raw-requests';
import { startStripeStandIn, type StripeStandIn } from '../../../helpers/standins/stripe-api';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function count(table: 'sites' | 'pending_submissions' | 'quota_usage', accountId: string) {
  const [row] = await queryRows<{ n: number }>(
    t.deps.db,
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE account_id = ${accountId}`,
  );
  return Number(row!.n);
}

describe('POST /api/v1/submit-site: membership path', () => {
  it('queues a member submission and counts it in used_today', async () => {
    const m = await t.member('member');
    const first = await submit(m.key, { name: uniqueName(), url: uniqueUrl() });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({
      site_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'queued',
      via: 'membership',
      quota: { used_today: 1, daily_limit: 5 },
    });
    const second = await submit(m.key, { name: uniqueName(), url: uniqueUrl() });
    expect((await second.json()).quota).toEqual({ used_today: 2, daily_limit: 5 });
  });

  it('is also served on POST /api/v1/sites (same handler)', async () => {
    const m = await t.member('member');
    const res = await t.request('/api/v1/sites', {
      method: 'POST',
      key: m.key,
      json: { name: uniqueName(), url: uniqueUrl() },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).status).toBe('queued');
  });

  it('memberFeature covers featured and gets 10 per day; the site is is_feature', async () => {
    const m = await t.member('memberFeature');
    const res = await submit(m.key, { name: uniqueName(), url: uniqueUrl(), plan: 'featured' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.quota).toEqual({ used_today: 1, daily_limit: 10 });
    const detail = await (await t.request(`/api/v1/sites/${body.site_id}`, { key: m.key })).json();
    expect(detail).toMatchObject({ status: 'queued', is_feature: true, is_sponsor: false });
  });

  it('the sixth submit of a member on one day is 402 quota_exceeded', async () => {
    const m = await t.member('member');
    for (let i = 0; i < 5; i++)
      expect((await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).status).toBe(201);
    const res = await submit(m.key, { name: uniqueName(), url: uniqueUrl() });
    expect(res.status).toBe(402);
    expect((await res.json()).reason).toBe('quota_exceeded');
  });
});

describe('POST /api/v1/submit-site: payment path', () => {
  it('answers 402 with the whole pending-payment record', async () => {
    const m = await t.member('none');
    const url = uniqueUrl();
    const name = uniqueName();
    const before = Date.now();
    const res = await submit(m.key, { name, url, email: 'owner@example.com' });
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toEqual({
      site_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name,
      url: `${url}/`, // as the URL parser reads it (new URL(url).href)
      status: 'pending_payment',
      plan: 'basic',
      checkout_url: expect.stringMatching(/^http:\/\/tooldir\.test\/checkout\/cs_local_[0-9A-Za-z]+$/),
      expires_at: expect.stringMatching(ISO),
      submitted_at: expect.stringMatching(ISO),
      reason: 'no_membership',
    });
    const lifetime = Date.parse(body.expires_at) - Date.parse(body.submitted_at);
    expect(lifetime).toBeGreaterThan(24 * 3600_000 - 5000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600_000);
    expect(Date.parse(body.submitted_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.checkout_url.split('/').at(-1)).toMatch(/^cs_local_/);
  });

  it.each([
    ['member', 'featured', 'plan_not_covered'],
    ['member', 'sponsored', 'plan_not_covered'],
    ['memberFeature', 'pro', 'plan_not_covered'],
    ['none', 'featured', 'no_membership'],
  ] as const)('%s submitting %s -> 402 %s, keeping the plan spelling', async (tier, plan, reason) => {
    const m = await t.member(tier);
    const res = await submit(m.key, { name: uniqueName(), url: uniqueUrl(), plan });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ reason, plan, status: 'pending_payment' });
  });

  it('re-submitting an unpaid URL replaces the pending record: same site_id, latest fields, fresh link, payment_pending', async () => {
    const m = await t.member('none');
    const url = uniqueUrl();
    const first = await (await submit(m.key, { name: 'First Name', url, plan: 'basic' })).json();
    const again = await submit(m.key, {
      name: 'Second Name',
      url: `${url}/?utm_source=x`,
      plan: 'featured',
      email: 'new@example.com',
    });
    expect(again.status).toBe(402);
    const second = await again.json();
    expect(second.site_id).toBe(first.site_id);
    expect(second).toMatchObject({ name: 'Second Name', plan: 'featured', reason: 'payment_pending' });
    expect(second.checkout_url).not.toBe(first.checkout_url);
    expect(await count('pending_submissions', m.accountId)).toBe(1);
    const detail = await (await t.request(`/api/v1/sites/${first.site_id}`, { key: m.key })).json();
    expect(detail).toEqual(second);
  });

  it('a re-submit of an unpaid URL without plan keeps the plan it waits with; naming one changes it; a new URL without plan is basic', async () => {
    const m = await t.member('none');
    const url = uniqueUrl();
    const first = await (await submit(m.key, { name: uniqueName(), url, plan: 'featured' })).json();
    expect(first.plan).toBe('featured');
    const kept = await submit(m.key, { name: uniqueName(), url });
    expect(kept.status).toBe(402);
    expect(await kept.json()).toMatchObject({ site_id: first.site_id, plan: 'featured', reason: 'payment_pending' });
    const changed = await (await submit(m.key, { name: uniqueName(), url, plan: 'basic' })).json();
    expect(changed).toMatchObject({ site_id: first.site_id, plan: 'basic' });
    expect((await (await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).json()).plan).toBe('basic');
  });

  it('a member re-submitting an unpaid featured URL without plan is asked to pay for featured, not queued as basic', async () => {
    const m = await t.member('none');
    const url = uniqueUrl();
    const pending = await (await submit(m.key, { name: uniqueName(), url, plan: 'featured' })).json();
    const upgrade = await t.request(`/api/v1/admin/accounts/${m.accountId}/membership`, {
      method: 'PUT',
      key: ADMIN_TOKEN,
      json: { tier: 'member' },
    });
    expect(upgrade.status).toBe(200);
    const res = await submit(m.key, { name: uniqueName(), url });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ site_id: pending.site_id, plan: 'featured', reason: 'payment_pending' });
  });

  it('a re-submit of a pending URL that now qualifies answers 201 with the same site_id', async () => {
    const m = await t.member('none');
    const url = uniqueUrl();
    const pending = await (await submit(m.key, { name: uniqueName(), url })).json();
    const upgrade = await t.request(`/api/v1/admin/accounts/${m.accountId}/membership`, {
      method: 'PUT',
      key: ADMIN_TOKEN,
      json: { tier: 'member' },
    });
    expect(upgrade.status).toBe(200);
    const res = await submit(m.key, { name: uniqueName(), url });
    expect(res.status).toBe(201);
    expect((await res.json()).site_id).toBe(pending.site_id);
    expect(await count('pending_submissions', m.accountId)).toBe(0);
    expect((await (await t.request(`/api/v1/sites/${pending.site_id}`, { key: m.key })).json()).status).toBe('queued');
  });

  it("another caller's unpaid record does not block a submit (the first paid wins)", async () => {
    const a = await t.member('none');
    const b = await t.member('member');
    const url = uniqueUrl();
    expect((await submit(a.key, { name: uniqueName(), url })).status).toBe(402);
    expect((await submit(b.key, { name: uniqueName(), url })).status).toBe(201);
  });
});

describe('POST /api/v1/submit-site: duplicates', () => {
  it('409 by canonical URL, with site_id only for the owner', async () => {
    const owner = await t.member('member');
    const other = await t.member('member');
    const url = uniqueUrl();
    const created = await (await submit(owner.key, { name: uniqueName(), url })).json();
    const own = await submit(owner.key, { name: uniqueName(), url: url.replace('https://', 'https://www.') + '/#x' });
    expect(own.status).toBe(409);
    expect(await own.json()).toEqual({
      error: { code: 'already_submitted', message: expect.any(String), site_id: created.site_id },
    });
    const theirs = await submit(other.key, { name: uniqueName(), url: `${url}?utm_medium=mail` });
    expect(theirs.status).toBe(409);
    expect(await theirs.json()).toEqual({ error: { code: 'already_submitted', message: expect.any(String) } });
  });

  it('409 by normalised name', async () => {
    const m = await t.member('member');
    const name = uniqueName();
    expect((await submit(m.key, { name, url: uniqueUrl() })).status).toBe(201);
    const res = await submit(m.key, { name: `  ${name.toUpperCase().replace(' ', '   ')} `, url: uniqueUrl() });
    expect(res.status).toBe(409);
  });

  it('a 409 does not spend quota', async () => {
    const m = await t.member('member');
    const url = uniqueUrl();
    await submit(m.key, { name: uniqueName(), url });
    await submit(m.key, { name: uniqueName(), url });
    const next = await (await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).json();
    expect(next.quota.used_today).toBe(2);
  });
});

describe('POST /api/v1/submit-site: concurrency against the real database', () => {
  it('8 concurrent submits with 5 remaining give exactly five 201 and three 402 quota_exceeded', async () => {
    const m = await t.member('member');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => submit(m.key, { name: uniqueName(), url: uniqueUrl() })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 402, 402, 402]);
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(bodies.filter((b) => b.status === 'pending_payment').every((b) => b.reason === 'quota_exceeded')).toBe(true);
    expect(
      bodies
        .filter((b) => b.status === 'queued')
        .map((b) => b.quota.used_today)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(await count('sites', m.accountId)).toBe(5);
  });

  it('6 concurrent submits of one URL give one 201 and five 409', async () => {
    const m = await t.member('memberFeature');
    const url = uniqueUrl();
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(m.key, { name: uniqueName(), url })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await count('sites', m.accountId)).toBe(1);
    const next = await (await submit(m.key, { name: uniqueName(), url: uniqueUrl() })).json();
    expect(next.quota.used_today).toBe(2);
  });
});

describe('POST /api/v1/submit-site: validation', () => {
  it.each([
    [{ url: 'https://a.example' }, 'name is required'],
    [{ name: 'Acme' }, 'url is required'],
    [{ name: 5, url: 'https://a.example' }, 'name must be a string'],
    [{ name: 'A', url: 'https://a.example' }, 'name must be 2 to 100 characters'],
    [{ name: 'x'.repeat(101), url: 'https://a.example' }, 'name must be 2 to 100 characters'],
    [{ name: 'bad\u0007name', url: 'https://a.example' }, 'name must not contain control characters'],
    [{ name: 'bad\ud800', url: 'https://a.example' }, 'name must be valid Unicode text'],
    [{ name: 'Acme', url: 'ftp://a.example' }, 'url: The address must start with https:// or http://, not ftp:'],
    [{ name: 'Acme', url: 'https://u:p@a.example' }, 'url: The address must not contain a user name or password'],
    [{ name: 'Acme', url: 'https://localhost' }, 'url: The address must have a full host name, such as acme.com'],
    [{ name: 'Acme', url: 'not a url' }, "url: Enter the website's address, such as https://acme.com"],
    [{ name: 'Acme', url: 'http://' }, "url: Enter the website's address, such as https://acme.com"],
    [{ name: 'Acme', url: 'https://a.example', email: 'nope' }, 'email must be a valid e-mail address'],
    [{ name: 'Acme', url: 'https://a.example', plan: 'gold' }, 'plan must be one of basic, featured, sponsored, pro'],
    [{ name: 'Acme', url: 'https://a.example', plan: null }, 'plan'],
  ])('%j -> 400 invalid_request naming the field', async (json, message) => {
    const m = await t.member('member');
    const res = await submit(m.key, json);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toContain(message);
    expect(await count('sites', m.accountId)).toBe(0);
    expect(await count('pending_submissions', m.accountId)).toBe(0);
  });

  it('unparsable JSON is 400 invalid_json', async () => {
    const m = await t.member('member');
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      headers: { 'content-type': 'application/json' },
      body: '{"name": "x",',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
    });
  });

  it.each([
    ['text/plain', '{"name":"Acme","url":"https://a.example"}', 'Content-Type must be application/json.'],
    [undefined, '{"name":"Acme","url":"https://a.example"}', 'Content-Type must be application/json.'],
    ['application/json', '[1,2]', 'The request body must be a JSON object.'],
    ['application/json', '"text"', 'The request body must be a JSON object.'],
    ['application/json', 'null', 'The request body must be a JSON object.'],
  ])('content type %s with %s -> 400 invalid_request', async (type, body, message) => {
    const m = await t.member('member');
    const headers: Record<string, string> = type ? { 'content-type': type } : {};
    const res = await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, headers, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message } });
  });

  it('a body over 64 KiB is 413 in the error shape', async () => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: 'Acme', url: 'https://a.example', pad: 'x'.repeat(70_000) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });

  it('accepts application/json with a charset', async () => {
    const m = await t.member('member');
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ name: uniqueName(), url: uniqueUrl() }),
    });
    expect(res.status).toBe(201);
  });
});

// Content-Type values the JSON body check accepts but the route's media-type gate would refuse must not
// fall through as 500: no 5xx for any input, and a non-JSON content type is 400 invalid_request.
const submitBody = () => JSON.stringify({ name: uniqueName(), url: uniqueUrl() });

describe('submit: odd JSON content types never answer 5xx', () => {
  it.each([
    'application/json;', // empty parameter list after the semicolon
    'application/json ;charset=utf-8', // whitespace before the semicolon (RFC 9110 allows OWS there)
    'application/json; charset', // parameter without a value
    'application/json;charset=utf-8;', // trailing semicolon
    'application/vnd.tooldir.v1+json', // structured +json suffix with a digit in the subtype
  ])('Content-Type %j is answered (201) or refused with 400 invalid_request, never 500', async (contentType) => {
    const m = await t.member('member');
    const res = await rawSubmit(t, m.key, submitBody(), contentType);
    expect(res.status).not.toBe(500);
    expect([201, 400]).toContain(res.status);
    if (res.status === 400) {
      await expectErrorBody(res, 'invalid_request');
      expect(await countRows(t, 'sites', m.accountId)).toBe(0);
      expect(await countRows(t, 'quota_usage', m.accountId)).toBe(0);
    }
  });
});

// The 2048-character cap is on the URL as typed; a non-ASCII path whose percent-encoded canonical form is huge
// must still be refused (or accepted) cleanly on both the membership and the payment path, never 500.
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
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: uniqueName(), url: longNonAsciiUrl(2) },
    });
    expect(res.status).not.toBe(500);
    expect([201, 400]).toContain(res.status);
    if (res.status === 400) {
      expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/^url/) } });
      expect(await countRows(t, 'quota_usage', m.accountId)).toBe(0);
    }
  });

  it('payment path: 400 invalid_request naming url (or 402), never 500', async () => {
    const m = await t.member('none');
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: uniqueName(), url: longNonAsciiUrl(3) },
    });
    expect(res.status).not.toBe(500);
    expect([400, 402]).toContain(res.status);
  });

  it('the list filter with the same URL answers 200 or 400, never 500', async () => {
    const m = await t.member('member');
    const res = await t.request(`/api/v1/sites?url=${encodeURIComponent(longNonAsciiUrl(4))}`, { key: m.key });
    expect([200, 400]).toContain(res.status);
  });
});

// Submit inputs the validation rules refuse (docs/contract.md, "Submit request"): port 0 is not a
// valid port, and a name made only of invisible characters is not 2 to 100 characters after trimming.
describe('submit: URL with port 0', () => {
  it.each(['https://port-zero.example:0/', 'http://port-zero.example:0'])(
    '%s is 400 invalid_request naming url',
    async (url) => {
      const m = await t.member('member');
      const res = await submit(m.key, { name: uniqueName(), url });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/^url/) } });
      expect(await countRows(t, 'quota_usage', m.accountId)).toBe(0);
    },
  );

  it('an explicit non-default port stays valid (control)', async () => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: uniqueName(), url: `${uniqueUrl()}:8443/` });
    expect(res.status).toBe(201);
  });
});

describe('submit: names without a visible character', () => {
  it.each([
    ['two zero-width spaces', '\u200b\u200b'],
    ['zero-width joiners', '\u200d\u200d\u200d'],
    ['two combining acute accents', '\u0301\u0301'],
    ['Hangul fillers', '\u3164\u3164'],
    ['braille blanks', '\u2800\u2800\u2800'],
    ['half-width Hangul fillers and a choseong filler', '\uffa0\uffa0\u115f'],
    ['one letter padded with braille blanks', 'A\u2800\u2800'],
    ['word joiners around a space', '\u2060 \u2060'],
  ])('%s is 400 invalid_request naming name', async (_label, name) => {
    const m = await t.member('member');
    const res = await submit(m.key, { name, url: uniqueUrl() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/^name/) } });
    expect(await countRows(t, 'sites', m.accountId)).toBe(0);
  });

  it('a short visible name with an accent stays valid (control)', async () => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: `Ré ${crypto.randomUUID().slice(0, 6)}`, url: uniqueUrl() });
    expect(res.status).toBe(201);
  });
});

// Stripe mode: two concurrent re-submits of one unpaid URL that differ (plan, e-mail) must not share a
// Checkout Session idempotency key, or Stripe refuses the second and the caller sees 500 checkout_failed.
// Network: only the loopback Stripe stand-in is reached.
describe('submit in Stripe mode: concurrent re-submits', () => {
  let stripe: StripeStandIn;
  let t: TestApp;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    t = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_review_0000000000',
        STRIPE_API_URL: stripe.url,
        STRIPE_PRICE_BASIC: 'price_basic',
        STRIPE_PRICE_FEATURED: 'price_featured',
        STRIPE_PRICE_SPONSORED: 'price_sponsored',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });

  describe('Stripe mode: concurrent re-submits of one unpaid URL', () => {
    it('a sequential re-submit works (control)', async () => {
      const m = await t.member('none');
      const url = uniqueUrl();
      expect((await submit(m.key, { name: uniqueName(), url })).status).toBe(402);
      const again = await submit(m.key, { name: uniqueName(), url, plan: 'featured' });
      expect(again.status).toBe(402);
      expect((await again.json()).reason).toBe('payment_pending');
    });

    it('two concurrent re-submits with different plans both answer 402, never 500 checkout_failed', async () => {
      const m = await t.member('none');
      const url = uniqueUrl();
      const first = await (await submit(m.key, { name: uniqueName(), url })).json();
      // Widen the window so both requests read the pending record before either writes (no timing assertion).
      stripe.setLatency(150);
      try {
        const [a, b] = await Promise.all([
          submit(m.key, { name: uniqueName(), url, plan: 'basic', email: 'a@example.com' }),
          submit(m.key, { name: uniqueName(), url, plan: 'featured', email: 'b@example.com' }),
        ]);
        const bodies = [await a.json(), await b.json()];
        expect([a.status, b.status], JSON.stringify(bodies)).toEqual([402, 402]);
        for (const body of bodies) expect(body.site_id).toBe(first.site_id);
      } finally {
        stripe.setLatency(0);
      }
    });
  });
});
