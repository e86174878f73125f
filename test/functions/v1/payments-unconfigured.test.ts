import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';

// Outside local mode without Stripe, nothing can be bought: the local "Pay" page would queue for free.
let t: TestApp;
beforeAll(async () => {
  // Outside local mode mail must be chosen explicitly (src/config.ts); this suite sends none.
  t = await createTestApp({ env: { DATABASE_URL: 'postgres://unused@127.0.0.1:1/db', MAIL_TRANSPORT: 'outbox' } });
});
afterAll(() => t.close());

describe('payments not configured in production mode', () => {
  it('a submit that needs payment is 500 plan_unavailable and stores no pending record', async () => {
    const m = await t.member('none');
    const url = `https://tool-${crypto.randomUUID().slice(0, 8)}.example`;
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: 'Unpaid Tool', url },
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: 'plan_unavailable', message: expect.any(String) } });
    expect((await (await t.request(`/api/v1/sites?url=${encodeURIComponent(url)}`, { key: m.key })).json()).total).toBe(
      0,
    );
  });

  it('a covered member is still queued', async () => {
    const m = await t.member('member');
    const url = `https://m-${crypto.randomUUID().slice(0, 8)}.example`;
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: 'Member Tool X', url },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      site_id: expect.any(String),
      status: 'queued',
      via: 'membership',
      quota: { used_today: 1 },
    });
    expect((await (await t.request(`/api/v1/sites?url=${encodeURIComponent(url)}`, { key: m.key })).json()).total).toBe(
      1,
    );
  });

  it('the local checkout page does not exist', async () => {
    const res = await t.request('/checkout/cs_local_anything');
    expect(res.status).toBe(404);
    // The unknown-checkout page, with no form to pay (or pretend to) on it.
    const html = await res.text();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('<title>Unknown checkout – tooldir</title>');
    expect(html).not.toMatch(/<form[^>]*checkout|>\s*Pay\b/i);
  });
});
