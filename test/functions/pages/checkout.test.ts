import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { createLogger } from '../../../src/log';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import {
  recordingPayments,
  recordingQueue,
  siteRow,
  submitUnpaid,
  uniqueUrl,
} from '../../helpers/stripe/payments-fixture';

let t: TestApp;
beforeAll(async () => {
  // Local payments (no Stripe variables): the checkout link is this service's own page.
  t = await createTestApp({ overrides: { queue: recordingQueue() } });
});
afterAll(() => t.close());

async function openCheckout(key: string, input: { name?: string; plan?: string } = {}) {
  const res = await t.request('/api/v1/submit-site', {
    method: 'POST',
    key,
    json: {
      name: input.name ?? `Page Tool ${crypto.randomUUID().slice(0, 6)}`,
      url: uniqueUrl(),
      ...(input.plan && { plan: input.plan }),
    },
  });
  expect(res.status).toBe(402);
  const record = (await res.json()) as { site_id: string; checkout_url: string };
  const url = new URL(record.checkout_url);
  expect(url.origin).toBe('http://tooldir.test');
  return { siteId: record.site_id, path: url.pathname, sessionId: url.pathname.split('/').pop()! };
}

const tokenOf = (page: string) => /name="_csrf" value="([0-9a-f]{64})"/.exec(page)?.[1];
const pay = (path: string, token: string, headers: Record<string, string> = {}) =>
  t.request(`${path}/pay`, {
    method: 'POST',
    body: new URLSearchParams({ _csrf: token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://tooldir.test', ...headers },
  });

describe('local checkout end to end', () => {
  it('GET the page, POST Pay, then the detail read shows queued', async () => {
    const m = await t.member('none');
    const c = await openCheckout(m.key, { plan: 'featured', name: 'Featured Page Tool' });
    const get = await t.request(c.path);
    expect(get.status).toBe(200);
    const csp = get.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'"); // the one stylesheet, no inline style
    expect(csp).toContain("form-action 'self'");
    const html = await get.text();
    expect(html).toContain('Featured Page Tool');
    expect(html).toContain('featured');
    expect(html).toContain('19.90 USD');
    expect(html).toContain('>Pay</button>');
    expect(html).toContain(`href="/checkout/cancelled?site_id=${c.siteId}"`);

    const paid = await pay(c.path, tokenOf(html)!);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/checkout/success?session_id=${c.sessionId}`);

    const detail = await t.request(`/api/v1/sites/${c.siteId}`, { key: m.key });
    const body = (await detail.json()) as { status: string; is_feature: boolean };
    expect(['queued', 'crawling', 'pending_review', 'live']).toContain(body.status);
    expect(body.is_feature).toBe(true);
    expect(await siteRow(t, c.siteId)).toMatchObject({ via: 'payment', stripe_checkout_session_id: c.sessionId });

    const success = await t.request(paid.headers.get('location')!);
    expect(success.status).toBe(200);
    const successPage = await success.text();
    // The status in words, and the way to the submission's own page instead of an API call.
    expect(successPage).toMatch(
      /<strong id="status" data-status="(queued|crawling|pending_review|live)">(queued for crawling|being crawled|crawled, waiting for editorial review|live)<\/strong>/,
    );
    expect(successPage).toContain(
      `<a class="button primary" id="follow" href="/account/submissions/${c.siteId}">Follow your submission</a>`,
    );
    expect(successPage).not.toContain('/api/v1/sites');

    // The link is spent: opening it again leads to the success page, paying again changes nothing.
    const again = await t.request(c.path);
    expect(again.status).toBe(303);
    expect((await pay(c.path, tokenOf(html)!)).status).toBe(303);
    const [history] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM site_history WHERE site_id = ${c.siteId}`,
    );
    expect(Number(history?.n)).toBe(1);
  });

  it('Pay is delivered through the webhook entry, which logs the handler summary', async () => {
    const lines: string[] = [];
    const t2 = await createTestApp({
      overrides: { queue: recordingQueue(), log: createLogger('info', (l) => lines.push(l)) },
    });
    try {
      const m = await t2.member('none');
      const res = await t2.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        json: { name: 'Logged Tool', url: uniqueUrl() },
      });
      const { checkout_url, site_id } = (await res.json()) as { checkout_url: string; site_id: string };
      const path = new URL(checkout_url).pathname;
      const token = tokenOf(await (await t2.request(path)).text())!;
      const paid = await t2.request(`${path}/pay`, {
        method: 'POST',
        body: new URLSearchParams({ _csrf: token }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(paid.status).toBe(303);
      const logged = lines
        .map((l) => JSON.parse(l) as { msg: string; summary?: string })
        .filter((l) => l.msg === 'stripe event');
      expect(logged).toHaveLength(1);
      expect(logged[0]!.summary).toMatch(
        new RegExp(`^checkout\\.session\\.completed evt_local_\\w+: site ${site_id} queued via payment \\(basic\\)$`),
      );
    } finally {
      await t2.close();
    }
  });

  it('paying for a URL someone else queued meanwhile ends on a refund page; the detail read says rejected', async () => {
    const m = await t.member('none');
    const url = uniqueUrl();
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: `Late Payer ${crypto.randomUUID().slice(0, 6)}`, url },
    });
    const { checkout_url, site_id } = (await res.json()) as { checkout_url: string; site_id: string };
    const path = new URL(checkout_url).pathname;
    const token = tokenOf(await (await t.request(path)).text())!;
    const other = await t.member('member');
    expect(
      (
        await t.request('/api/v1/submit-site', {
          method: 'POST',
          key: other.key,
          json: { name: `Early Bird ${crypto.randomUUID().slice(0, 6)}`, url },
        })
      ).status,
    ).toBe(201);
    const paid = await pay(path, token);
    expect(paid.status).toBe(303);
    const page = await (await t.request(paid.headers.get('location')!)).text();
    expect(page).toContain('Payment refunded');
    expect(page).toContain(
      '<strong id="status" data-status="rejected">not queued</strong>, and the payment was refunded.',
    );
    expect(page).toContain(`href="/account/submissions/${site_id}">Follow your submission</a>`);
    const detail = (await (await t.request(`/api/v1/sites/${site_id}`, { key: m.key })).json()) as {
      status: string;
      rejection_reason: string;
    };
    expect(detail.status).toBe('rejected');
    expect(detail.rejection_reason).toContain('refunded');
    expect((await t.request(path)).status).toBe(410);
  });

  it('shows 404 for an unknown session and for a replaced one', async () => {
    const unknown = await t.request('/checkout/cs_local_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('text/html');
    expect(await unknown.text()).toContain('Unknown checkout link');

    const m = await t.member('none');
    const name = `Replaced Tool ${crypto.randomUUID().slice(0, 6)}`;
    const url = uniqueUrl();
    const first = await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: { name, url } });
    const oldPath = new URL(((await first.json()) as { checkout_url: string }).checkout_url).pathname;
    await t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json: { name, url } });
    expect((await t.request(oldPath)).status).toBe(404);
  });

  it('shows 410 for an expired link and refuses to pay it', async () => {
    const m = await t.member('none');
    const c = await openCheckout(m.key);
    const token = tokenOf(await (await t.request(c.path)).text())!;
    await queryRows(
      t.deps.db,
      sql`UPDATE pending_submissions SET expires_at = now() - interval '1 minute' WHERE id = ${c.siteId} RETURNING id`,
    );
    const res = await t.request(c.path);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('expired');
    expect((await pay(c.path, token)).status).toBe(410);
    expect(await siteRow(t, c.siteId)).toBeUndefined();
  });

  it('escapes HTML in the tool name', async () => {
    const m = await t.member('none');
    const c = await openCheckout(m.key, { name: '<script>alert(1)</script> & "Co"' });
    const html = await (await t.request(c.path)).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
  });

  it('refuses a Pay without the form token, with a wrong token, or from another origin (CSRF)', async () => {
    const m = await t.member('none');
    const c = await openCheckout(m.key);
    const token = tokenOf(await (await t.request(c.path)).text())!;
    expect((await pay(c.path, '')).status).toBe(403);
    expect((await pay(c.path, 'f'.repeat(64))).status).toBe(403);
    expect((await pay(c.path, token, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await pay(c.path, token, { origin: 'null' })).status).toBe(403);
    expect((await pay(c.path, token, { origin: '', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await siteRow(t, c.siteId)).toBeUndefined();
    expect((await pay(c.path, token)).status).toBe(303);
  });

  it('refuses an oversized form with a 413 page', async () => {
    const m = await t.member('none');
    const c = await openCheckout(m.key);
    const res = await pay(c.path, 'a'.repeat(10_000));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await siteRow(t, c.siteId)).toBeUndefined();
  });

  it('the cancelled page leads back to the submission; a malformed site_id gets the plain text only', async () => {
    const siteId = crypto.randomUUID();
    const res = await t.request(`/checkout/cancelled?site_id=${siteId}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('Payment cancelled');
    expect(page).toContain(
      `<a class="button primary" id="follow" href="/account/submissions/${siteId}">Back to your submission</a>`,
    );
    for (const bad of ['x', `${siteId}"><script>alert(1)</script>`, '../../admin', '']) {
      const plain = await t.request(`/checkout/cancelled?site_id=${encodeURIComponent(bad)}`);
      expect(plain.status, bad).toBe(200);
      const text = await plain.text();
      expect(text, bad).toContain('Nothing was charged.');
      expect(text, bad).not.toContain('id="follow"');
      expect(text, bad).not.toContain('<script>alert');
    }
    expect(await (await t.request('/checkout/cancelled')).text()).not.toContain('id="follow"');
  });

  it('does not exist when Stripe is configured (no free payments)', async () => {
    const t2 = await createTestApp({
      env: { STRIPE_SECRET_KEY: 'sk_test_unused', STRIPE_PRICE_BASIC: 'price_b' },
      overrides: { payments: { ...recordingPayments(), kind: 'stripe' }, queue: recordingQueue() },
    });
    try {
      const m = await t2.member('none');
      const p = await submitUnpaid(t2, m.key);
      expect((await t2.request(`/checkout/${p.sessionId}`)).status).toBe(404);
      const res = await t2.request(`/checkout/${p.sessionId}/pay`, {
        method: 'POST',
        body: 'token=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(404);
      expect(await siteRow(t2, p.siteId)).toBeUndefined();
    } finally {
      await t2.close();
    }
  });
});
