// Self-test of the Stripe stand-in (driven by stripe-node) and of the webhook signature helpers (checked by stripe-node).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/standins/stripe-api';
import { parseStripeForm } from '../../helpers/standins/stripe-form';
import { buildStripeEvent, signStripeEvent, signStripeEventWithSecrets } from '../../helpers/standins/stripe-signature';

const secretKey = 'sk_test_standin_0000000000';

describe('Stripe API stand-in', () => {
  let standIn: StripeStandIn;
  let stripe: Stripe;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
    stripe = new Stripe(secretKey, standIn.clientOptions);
  });
  afterAll(() => standIn?.close());

  it('parses Stripe form encoding into nested objects and arrays', () => {
    expect(
      parseStripeForm(
        'mode=payment&metadata[site_id]=s1&line_items[0][price]=p1&line_items[0][quantity]=1&line_items[1][price_data][unit_amount]=500&payment_method_types[]=card',
      ),
    ).toEqual({
      mode: 'payment',
      metadata: { site_id: 's1' },
      line_items: [{ price: 'p1', quantity: '1' }, { price_data: { unit_amount: '500' } }],
      payment_method_types: ['card'],
    });
  });

  it('creates a Checkout Session and records what the client sent', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 1800;
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: 'site_42',
        expires_at: expiresAt,
        metadata: { site_id: 'site_42', plan: 'featured' },
        line_items: [{ price: 'price_featured', quantity: 1 }],
        success_url: 'https://tooldir.example/ok',
      },
      { idempotencyKey: 'checkout:site_42:1' },
    );
    expect(session).toMatchObject({
      id: expect.stringMatching(/^cs_test_/),
      object: 'checkout.session',
      url: expect.stringContaining(standIn.url),
      status: 'open',
      mode: 'payment',
      client_reference_id: 'site_42',
      expires_at: expiresAt,
      metadata: { site_id: 'site_42', plan: 'featured' },
    });
    const request = standIn.requests.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      idempotencyKey: 'checkout:site_42:1',
      authorization: `Bearer ${secretKey}`,
      body: {
        mode: 'payment',
        client_reference_id: 'site_42',
        expires_at: String(expiresAt),
        line_items: [{ price: 'price_featured', quantity: '1' }],
      },
    });
  });

  it('replays the same response for a repeated Idempotency-Key and refuses other params under it', async () => {
    const params = {
      mode: 'payment' as const,
      client_reference_id: 'site_7',
      line_items: [{ price: 'price_basic', quantity: 1 }],
    };
    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: 'idem-7' });
    const second = await stripe.checkout.sessions.create(params, { idempotencyKey: 'idem-7' });
    expect(second.id).toBe(first.id);
    expect(standIn.sessions.size).toBeGreaterThanOrEqual(1);
    await expect(
      stripe.checkout.sessions.create({ ...params, client_reference_id: 'other' }, { idempotencyKey: 'idem-7' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('expires an open session once, then answers 400; an unknown id is a 404 resource_missing', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: 'price_basic', quantity: 1 }],
    });
    expect(await stripe.checkout.sessions.expire(session.id)).toMatchObject({ id: session.id, status: 'expired' });
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
    });
    await expect(stripe.checkout.sessions.expire('cs_test_unknown')).rejects.toMatchObject({
      code: 'resource_missing',
      statusCode: 404,
    });
  });

  it('completes a session for webhook tests (payment vs subscription mode)', async () => {
    const paid = await stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: 'site_p',
      line_items: [{ price: 'price_basic', quantity: 1 }],
    });
    expect(standIn.completeSession(paid.id, { paymentIntent: 'pi_paid' })).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_paid',
      subscription: null,
    });
    const sub = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: 'price_sponsored', quantity: 1 }],
    });
    expect(standIn.completeSession(sub.id)).toMatchObject({
      status: 'complete',
      payment_intent: null,
      subscription: expect.stringMatching(/^sub_/),
    });
    await expect(stripe.checkout.sessions.expire(paid.id)).rejects.toMatchObject({ statusCode: 400 }); // a paid session cannot expire
  });

  it('charges what the Price costs, and refuses a Price it does not know like Stripe', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      allow_promotion_codes: true,
      line_items: [{ price: 'price_sponsored', quantity: 2 }],
    });
    expect(session).toMatchObject({ amount_total: 5980, currency: 'usd', allow_promotion_codes: true });
    await expect(
      stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: 'price_nobody', quantity: 1 }] }),
    ).rejects.toMatchObject({
      code: 'resource_missing',
      statusCode: 400,
    });
  });

  it('records tax collection on a session and refuses the combinations Stripe refuses', async () => {
    const taxed = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: 'price_basic', quantity: 1 }],
      automatic_tax: { enabled: true },
      tax_id_collection: { enabled: true },
      invoice_creation: { enabled: true },
    });
    expect(taxed).toMatchObject({
      amount_total: 1590,
      automatic_tax: { enabled: true, status: 'requires_location_inputs' },
      tax_id_collection: { enabled: true },
      invoice_creation: { enabled: true },
      total_details: { amount_tax: 0 },
    });
    expect(standIn.requests.at(-1)!.body).toMatchObject({
      automatic_tax: { enabled: 'true' },
      tax_id_collection: { enabled: 'true' },
      invoice_creation: { enabled: 'true' },
    });
    // The buyer's address makes Stripe Tax add the tax to a tax-exclusive Price.
    expect(standIn.completeSession(taxed.id, { tax: 302 })).toMatchObject({
      amount_subtotal: 1590,
      amount_total: 1892,
      total_details: { amount_tax: 302 },
      automatic_tax: { status: 'complete' },
    });

    const subscription = { mode: 'subscription' as const, line_items: [{ price: 'price_member', quantity: 1 }] };
    await expect(
      stripe.checkout.sessions.create({ ...subscription, invoice_creation: { enabled: true } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'invoice_creation' });
    await expect(
      stripe.checkout.sessions.create({ ...subscription, customer_update: { address: 'auto' } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'customer_update' });
    await expect(
      stripe.checkout.sessions.create({ ...subscription, customer: 'cus_1', automatic_tax: { enabled: true } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'automatic_tax[enabled]' });
    await expect(
      stripe.checkout.sessions.create({
        ...subscription,
        customer: 'cus_1',
        tax_id_collection: { enabled: true },
        customer_update: { address: 'auto' },
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'tax_id_collection[enabled]' });
    const existing = await stripe.checkout.sessions.create({
      ...subscription,
      customer: 'cus_1',
      automatic_tax: { enabled: true },
      tax_id_collection: { enabled: true },
      customer_update: { address: 'auto', name: 'auto' },
    });
    expect(existing).toMatchObject({ customer: 'cus_1', invoice_creation: null, automatic_tax: { enabled: true } });
    // Without tax the session is as before: no tax fields switched on, a completed one charges the Price.
    const plain = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: 'price_basic', quantity: 1 }],
    });
    expect(plain).toMatchObject({
      automatic_tax: { enabled: false },
      tax_id_collection: { enabled: false },
      invoice_creation: { enabled: false },
    });
    expect(standIn.completeSession(plain.id, { tax: 302 })).toMatchObject({
      amount_total: 1590,
      total_details: { amount_tax: 0 },
    });
  });

  it('opens Customer Portal sessions for a customer and cancels subscriptions once', async () => {
    const portal = await stripe.billingPortal.sessions.create({
      customer: 'cus_portal',
      return_url: 'https://tooldir.example/account',
    });
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: 'cus_portal',
      return_url: 'https://tooldir.example/account',
      url: expect.stringContaining(`${standIn.url}/p/session/bps_`),
    });
    expect(standIn.portalSessions.at(-1)).toMatchObject({ id: portal.id });
    await expect(
      stripe.billingPortal.sessions.create({} as Stripe.BillingPortal.SessionCreateParams),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing' });
    expect(await stripe.subscriptions.cancel('sub_old', { prorate: true })).toMatchObject({
      id: 'sub_old',
      status: 'canceled',
    });
    expect(standIn.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/v1/subscriptions/sub_old',
      body: { prorate: 'true' },
    });
    await expect(stripe.subscriptions.cancel('sub_old')).rejects.toMatchObject({ statusCode: 400 });
    expect(standIn.cancelledSubscriptions).toContain('sub_old');
  });

  it('refunds a payment intent with its idempotency key', async () => {
    const refund = await stripe.refunds.create(
      { payment_intent: 'pi_123', metadata: { site_id: 's9' } },
      { idempotencyKey: 'refund:pi_123' },
    );
    expect(refund).toMatchObject({
      object: 'refund',
      payment_intent: 'pi_123',
      status: 'succeeded',
      metadata: { site_id: 's9' },
    });
    const again = await stripe.refunds.create(
      { payment_intent: 'pi_123', metadata: { site_id: 's9' } },
      { idempotencyKey: 'refund:pi_123' },
    );
    expect(again.id).toBe(refund.id);
    expect(standIn.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey)).toEqual([
      'refund:pi_123',
      'refund:pi_123',
    ]);
  });

  it('serves configured subscriptions and 404s others', async () => {
    standIn.setSubscription({ id: 'sub_1', status: 'past_due', customer: 'cus_1' });
    expect(await stripe.subscriptions.retrieve('sub_1')).toMatchObject({
      id: 'sub_1',
      status: 'past_due',
      customer: 'cus_1',
    });
    await expect(stripe.subscriptions.retrieve('sub_none')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('can be down (500 or dropped socket) and slow, for fault tests', async () => {
    standIn.setDown('error');
    await expect(stripe.refunds.create({ payment_intent: 'pi_down' })).rejects.toMatchObject({
      type: 'StripeAPIError',
      statusCode: 500,
    });
    standIn.setDown('destroy');
    await expect(stripe.refunds.create({ payment_intent: 'pi_down' })).rejects.toMatchObject({
      type: 'StripeConnectionError',
    });
    standIn.setDown(false);
    standIn.setLatency(300);
    const slow = new Stripe(secretKey, { ...standIn.clientOptions, timeout: 100 });
    await expect(slow.refunds.create({ payment_intent: 'pi_slow' })).rejects.toMatchObject({
      type: 'StripeConnectionError',
    });
    standIn.setLatency(0);
  });
});

describe('Stripe webhook signatures', () => {
  const stripe = new Stripe(secretKey);
  const secret = 'whsec_test_current';
  const payload = buildStripeEvent('checkout.session.completed', {
    id: 'cs_test_1',
    object: 'checkout.session',
    payment_status: 'paid',
  });
  const provider = Stripe.createSubtleCryptoProvider();

  it("signs so constructEventAsync accepts it, identical to stripe-node's own test header", async () => {
    const t = Math.floor(Date.now() / 1000);
    const header = signStripeEvent(payload, secret, t);
    expect(header).toBe(stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: t }));
    const event = await stripe.webhooks.constructEventAsync(payload, header, secret, undefined, provider);
    expect(event).toMatchObject({ type: 'checkout.session.completed', data: { object: { id: 'cs_test_1' } } });
  });

  it('is rejected for a changed byte, a wrong secret and a stale timestamp', async () => {
    const header = signStripeEvent(payload, secret);
    await expect(
      stripe.webhooks.constructEventAsync(payload.replace('paid', 'pais'), header, secret, undefined, provider),
    ).rejects.toThrow();
    await expect(
      stripe.webhooks.constructEventAsync(
        payload,
        signStripeEvent(payload, 'whsec_other'),
        secret,
        undefined,
        provider,
      ),
    ).rejects.toThrow();
    const stale = signStripeEvent(payload, secret, Math.floor(Date.now() / 1000) - 301);
    await expect(stripe.webhooks.constructEventAsync(payload, stale, secret, undefined, provider)).rejects.toThrow(
      /tolerance/,
    );
  });

  it('carries two v1 signatures during secret rotation; either secret verifies', async () => {
    const header = signStripeEventWithSecrets(payload, ['whsec_old', secret]);
    expect(header.match(/v1=/g)).toHaveLength(2);
    await expect(
      stripe.webhooks.constructEventAsync(payload, header, secret, undefined, provider),
    ).resolves.toMatchObject({ object: 'event' });
    await expect(
      stripe.webhooks.constructEventAsync(payload, header, 'whsec_old', undefined, provider),
    ).resolves.toMatchObject({ object: 'event' });
  });
});
