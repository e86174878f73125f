// Review finding F6 (Stripe mode): two concurrent re-submits of the same unpaid URL both read the pending
// record's version N and both create their Checkout Session with the idempotency key `checkout-{site}-v{N+1}`.
// When the two requests differ (another plan or e-mail), Stripe refuses the second with idempotency_error and
// the caller gets 500 checkout_failed, although nothing is wrong on either side. The version used for the
// idempotency key must be reserved atomically (or the key must include what differs).
// Network: only the loopback Stripe stand-in is reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/standins/stripe-api';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { uniqueName, uniqueUrl } from './review-helpers';

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
