// The fetch-based Stripe client against the Stripe stand-in (which stripe-node itself was proven against):
// Checkout Session creation with nested parameters, idempotent replay, expire, errors with statusCode,
// retries on 5xx and a bounded failure when Stripe is slow or down.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStripeHttp, formEncode, StripeApiError, STRIPE_API_VERSION } from '../../../src/adapters/payments/stripe-http';
import { createStripePayments } from '../../../src/adapters/payments/stripe';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/standins/stripe-api';

let stripe: StripeStandIn;
beforeAll(async () => {
  stripe = await startStripeStandIn();
});
afterAll(() => stripe.close());
beforeEach(() => {
  stripe.setDown(false);
  stripe.setLatency(0);
  stripe.clearRequests();
});

const config = () => ({
  secretKey: 'sk_test_http_client',
  apiUrl: stripe.url,
  prices: { basic: 'price_basic', featured: 'price_featured', sponsored: 'price_sponsored' },
});
const request = (siteId: string, plan: 'basic' | 'sponsored' = 'basic') => ({
  siteId,
  plan,
  name: 'Acme',
  url: 'https://acme.example/',
  email: 'owner@acme.example',
  version: 1,
  origin: 'http://tooldir.test',
});

describe('formEncode', () => {
  it('encodes nested objects and arrays with brackets like stripe-node, skipping undefined', () => {
    expect(formEncode({ a: 1, b: { c: 'x y', d: undefined }, e: [{ f: true }], g: null })).toBe('a=1&b%5Bc%5D=x%20y&e%5B0%5D%5Bf%5D=true&g=');
  });
});

describe('Stripe over fetch', () => {
  it('creates a payment-mode Checkout Session with the parameters the stand-in parses like Stripe', async () => {
    const payments = createStripePayments(config(), () => new Date());
    const session = await payments.createCheckout(request('11111111-1111-4111-8111-111111111111'));
    expect(session.url).toMatch(/^http/);
    const sent = stripe.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(sent.body).toMatchObject({
      mode: 'payment',
      client_reference_id: '11111111-1111-4111-8111-111111111111',
      line_items: [{ price: 'price_basic', quantity: '1' }],
      metadata: { site_id: '11111111-1111-4111-8111-111111111111', plan: 'basic', version: '1' },
      payment_intent_data: { metadata: { plan: 'basic' } },
      customer_email: 'owner@acme.example',
    });
    expect(sent.stripeVersion).toBe(STRIPE_API_VERSION);
    expect(sent.authorization).toBe('Bearer sk_test_http_client');
    expect(sent.idempotencyKey).toMatch(/^checkout-11111111-1111-4111-8111-111111111111-v1-/);
  });

  it('replays an idempotent request to the same session and expires it (a second expire is a 400, ignored)', async () => {
    const payments = createStripePayments(config());
    const first = await payments.createCheckout(request('22222222-2222-4222-8222-222222222222', 'sponsored'));
    const again = await payments.createCheckout(request('22222222-2222-4222-8222-222222222222', 'sponsored'));
    expect(again.sessionId).toBe(first.sessionId);
    await payments.expireCheckout(first.sessionId);
    expect(stripe.sessions.get(first.sessionId)?.status).toBe('expired');
    await expect(payments.expireCheckout(first.sessionId)).resolves.toBeUndefined();
  });

  it('throws StripeApiError with the status and Stripe message, never the key', async () => {
    const http = createStripeHttp({ secretKey: 'sk_test_secret_never_shown', apiUrl: stripe.url, maxRetries: 0 });
    const error = (await http.post('/v1/checkout/sessions/cs_missing/expire', {}).catch((e: unknown) => e)) as StripeApiError;
    expect(error).toBeInstanceOf(StripeApiError);
    expect(error.statusCode).toBeGreaterThanOrEqual(400);
    expect(error.message).not.toContain('sk_test_secret_never_shown');
  });

  it('retries a 5xx once with the same idempotency key, then fails as checkout_failed', async () => {
    stripe.setDown('error');
    const payments = createStripePayments(config());
    await expect(payments.createCheckout(request('33333333-3333-4333-8333-333333333333'))).rejects.toMatchObject({ code: 'checkout_failed' });
    const attempts = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it('gives up on a slow Stripe after the per-attempt timeout', async () => {
    stripe.setLatency(2000);
    const http = createStripeHttp({ secretKey: 'sk_test_x', apiUrl: stripe.url, timeoutMs: 200, maxRetries: 0 });
    await expect(http.post('/v1/refunds', { payment_intent: 'pi_1' })).rejects.toThrow(/did not answer within 200 ms/);
  });
});
