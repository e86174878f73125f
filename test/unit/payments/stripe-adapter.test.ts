// The Stripe payments adapter against local HTTP stand-ins, through stripe-node's host/port/protocol (STRIPE_API_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutIdempotencyKey, createStripePayments } from '../../../src/adapters/payments/stripe';
import { loadConfig } from '../../../src/config';
import { ServiceError } from '../../../src/errors';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/standins/stripe-api';
import { startSubscriptionStandIn } from '../../helpers/stripe/subscription-standin';

const NOW = new Date('2026-11-21T12:00:00.000Z');
let standIn: StripeStandIn;
beforeAll(async () => {
  standIn = await startStripeStandIn();
});
afterAll(() => standIn.close());

const stripeConfig = (apiUrl: string, prices: Record<string, string> = {}) =>
  loadConfig({
    STRIPE_SECRET_KEY: 'sk_test_adapter_0000',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
    STRIPE_API_URL: apiUrl,
    STRIPE_PRICE_BASIC: 'price_basic',
    STRIPE_PRICE_FEATURED: 'price_featured',
    STRIPE_PRICE_SPONSORED: 'price_sponsored',
    ...prices,
  }).stripe!;

const adapter = () => createStripePayments(stripeConfig(standIn.url), () => NOW);
const siteId = '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a';
const request = {
  siteId,
  name: 'Acme',
  url: 'https://acme.example',
  email: 'a@example.com',
  origin: 'https://tooldir.example',
};

describe('Stripe adapter: Checkout Sessions', () => {
  it('creates a payment-mode session for a one-time plan', async () => {
    standIn.clearRequests();
    const session = await adapter().createCheckout({ ...request, plan: 'featured', kind: 'featured', version: 3 });
    const [sent] = standIn.requests;
    const key = await checkoutIdempotencyKey({ ...request, plan: 'featured', kind: 'featured', version: 3 });
    expect(key).toMatch(new RegExp(`^checkout-${siteId}-v3-[0-9a-f]{16}$`));
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: key });
    expect(sent!.authorization).toBe('Bearer sk_test_adapter_0000');
    const expectedExpiry = Math.floor((NOW.getTime() + 24 * 3600 * 1000) / 1000) - 60;
    expect(sent!.body).toMatchObject({
      mode: 'payment',
      client_reference_id: siteId,
      expires_at: String(expectedExpiry),
      line_items: [{ price: 'price_featured', quantity: '1' }],
      metadata: { site_id: siteId, plan: 'featured', version: '3' },
      payment_intent_data: { metadata: { site_id: siteId, plan: 'featured', version: '3' } },
      success_url: 'https://tooldir.example/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: `https://tooldir.example/checkout/cancelled?site_id=${siteId}`,
      customer_email: 'a@example.com',
    });
    expect(sent!.body.subscription_data).toBeUndefined();
    expect(session.sessionId).toMatch(/^cs_test_/);
    expect(session.url).toContain(session.sessionId);
    expect(session.expiresAt.getTime()).toBe(expectedExpiry * 1000);
    // What Stripe says the session charges is what we record; no promotion codes unless configured.
    expect(session).toMatchObject({ mode: 'payment', amountTotal: 1990, currency: 'usd', promotionCodes: false });
    expect(session.ref).toBeUndefined();
    expect(sent!.body.allow_promotion_codes).toBeUndefined();
  });

  it('STRIPE_PROMOTION_CODES=true creates sessions with allow_promotion_codes, recorded as such', async () => {
    standIn.clearRequests();
    const promo = createStripePayments(stripeConfig(standIn.url, { STRIPE_PROMOTION_CODES: 'true' }), () => NOW);
    const session = await promo.createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 30 });
    expect(standIn.requests[0]!.body).toMatchObject({ allow_promotion_codes: 'true' });
    expect(session).toMatchObject({ amountTotal: 1590, promotionCodes: true });
  });

  it('a Price Stripe does not know is checkout_failed, and nothing unrecordable is handed out', async () => {
    const broken = createStripePayments(stripeConfig(standIn.url, { STRIPE_PRICE_BASIC: 'price_deleted' }), () => NOW);
    await expect(
      broken.createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 31 }),
    ).rejects.toMatchObject({ code: 'checkout_failed' });
  });

  it('creates a subscription-mode session for the sponsored plan (also spelled pro)', async () => {
    standIn.clearRequests();
    const session = await adapter().createCheckout({ ...request, plan: 'pro', kind: 'sponsored', version: 1 });
    expect(session).toMatchObject({
      mode: 'subscription',
      amountTotal: 2990,
      currency: 'usd',
      ref: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(standIn.requests[0]!.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: siteId,
      line_items: [{ price: 'price_sponsored', quantity: '1' }],
      metadata: { site_id: siteId, plan: 'pro', version: '1' },
      // The reference lets subscription events that arrive before the completed session be recognised as ours.
      subscription_data: {
        metadata: { site_id: siteId, plan: 'pro', version: '1', purpose: 'sponsorship', tooldir_ref: session.ref },
      },
    });
    expect(standIn.requests[0]!.body.payment_intent_data).toBeUndefined();
  });

  it('the same version never makes two sessions (idempotency key replay)', async () => {
    const a = await adapter().createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 7 });
    const b = await adapter().createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 7 });
    expect(b.sessionId).toBe(a.sessionId);
    // A subscription's reference is derived from the key too, so a retry sends identical parameters.
    const c = await adapter().createCheckout({ ...request, plan: 'sponsored', kind: 'sponsored', version: 8 });
    const d = await adapter().createCheckout({ ...request, plan: 'sponsored', kind: 'sponsored', version: 8 });
    expect(d).toEqual(c);
  });

  it('a version first sent with other parameters (never stored) still gets a link, under a fresh key', async () => {
    const first = await adapter().createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 21 });
    standIn.clearRequests();
    const later = createStripePayments(stripeConfig(standIn.url), () => new Date(NOW.getTime() + 5000));
    const second = await later.createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 21 });
    expect(second.sessionId).not.toBe(first.sessionId);
    const expiry = Math.floor((NOW.getTime() + 5000 + 24 * 3600 * 1000) / 1000) - 60;
    const key = await checkoutIdempotencyKey({ ...request, plan: 'basic', kind: 'basic', version: 21 });
    expect(standIn.requests.map((r) => r.idempotencyKey)).toEqual([key, `${key}-${expiry}`]);
  });

  it('a plan without a Price is plan_unavailable; a provider failure is checkout_failed', async () => {
    const noPrice = createStripePayments(stripeConfig(standIn.url, { STRIPE_PRICE_FEATURED: '' }), () => NOW);
    await expect(
      noPrice.createCheckout({ ...request, plan: 'featured', kind: 'featured', version: 1 }),
    ).rejects.toMatchObject({ code: 'plan_unavailable' });
    standIn.setDown('error');
    try {
      const error = await adapter()
        .createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 99 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe('checkout_failed');
    } finally {
      standIn.setDown(false);
    }
  });

  it('expires a session; expiring it again (already expired) is not an error', async () => {
    const session = await adapter().createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 11 });
    standIn.clearRequests();
    await adapter().expireCheckout(session.sessionId);
    await adapter().expireCheckout(session.sessionId);
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/checkout/sessions/${session.sessionId}/expire`,
      `POST /v1/checkout/sessions/${session.sessionId}/expire`,
    ]);
    expect(standIn.sessions.get(session.sessionId)?.status).toBe('expired');
  });
});

describe('Stripe adapter: refunds', () => {
  it('refunds a payment intent with the reason, idempotent on the payment intent', async () => {
    standIn.clearRequests();
    await adapter().refund('pi_123', 'URL taken');
    await adapter().refund('pi_123', 'URL taken');
    expect(standIn.requests).toHaveLength(2);
    for (const r of standIn.requests) {
      expect(r).toMatchObject({
        method: 'POST',
        path: '/v1/refunds',
        idempotencyKey: 'refund-pi_123',
        body: { payment_intent: 'pi_123', metadata: { reason: 'URL taken' } },
      });
    }
  });

  it('cancels a subscription and refunds the payments of its first invoice', async () => {
    const sub = await startSubscriptionStandIn({ in_1: 'pi_sub_1' });
    try {
      const payments = createStripePayments(stripeConfig(sub.url), () => NOW);
      await payments.cancelSubscriptionAndRefund('sub_1', 'in_1', 'taken');
      await payments.cancelSubscriptionAndRefund('sub_1', 'in_1', 'taken'); // already cancelled: still fine
      const seen = sub.requests.map((r) => `${r.method} ${r.path}`);
      expect(seen).toEqual([
        'DELETE /v1/subscriptions/sub_1',
        'GET /v1/invoice_payments',
        'POST /v1/refunds',
        'DELETE /v1/subscriptions/sub_1',
        'GET /v1/invoice_payments',
        'POST /v1/refunds',
      ]);
      expect(sub.requests[1]!.query).toContain('invoice=in_1');
      expect(sub.requests[2]).toMatchObject({
        idempotencyKey: 'refund-pi_sub_1',
        body: { payment_intent: 'pi_sub_1', metadata: { reason: 'taken' } },
      });
    } finally {
      await sub.close();
    }
  });
});

describe('Stripe adapter: membership checkout', () => {
  it('creates a subscription-mode session for the tier Price with the account as client_reference_id', async () => {
    standIn.clearRequests();
    const payments = createStripePayments(
      stripeConfig(standIn.url, { STRIPE_PRICE_MEMBER: 'price_member', STRIPE_PRICE_MEMBER_FEATURE: 'price_mf' }),
      () => NOW,
    );
    const session = await payments.createMembershipCheckout({
      accountId: siteId,
      tier: 'memberFeature',
      email: 'm@example.com',
      origin: 'https://tooldir.example',
    });
    const bucket = Math.floor(NOW.getTime() / 600_000);
    expect(standIn.requests[0]).toMatchObject({
      path: '/v1/checkout/sessions',
      idempotencyKey: `membership-${siteId}-memberFeature-${bucket}`,
      body: {
        mode: 'subscription',
        client_reference_id: siteId,
        customer_email: 'm@example.com',
        line_items: [{ price: 'price_mf', quantity: '1' }],
        metadata: { purpose: 'membership', account_id: siteId, tier: 'memberFeature' },
        subscription_data: {
          metadata: { purpose: 'membership', account_id: siteId, tier: 'memberFeature', tooldir_ref: session.ref },
        },
      },
    });
    expect(session.url).toContain(session.sessionId);
    expect(session).toMatchObject({
      mode: 'subscription',
      amountTotal: 1990,
      currency: 'usd',
      ref: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    await expect(
      adapter().createMembershipCheckout({ accountId: siteId, tier: 'member', email: 'm@example.com', origin: 'x' }),
    ).rejects.toMatchObject({ code: 'plan_unavailable' });
  });
});

describe('Stripe adapter: tax collection (STRIPE_AUTOMATIC_TAX, STRIPE_TAX_ID_COLLECTION, STRIPE_INVOICE_CREATION)', () => {
  const taxed = (env: Record<string, string> = {}) =>
    createStripePayments(
      stripeConfig(standIn.url, {
        STRIPE_AUTOMATIC_TAX: 'on',
        STRIPE_TAX_ID_COLLECTION: 'on',
        STRIPE_INVOICE_CREATION: 'on',
        STRIPE_PRICE_MEMBER: 'price_member',
        ...env,
      }),
      () => NOW,
    );

  it('is off by default: no tax parameter is sent (an account without Stripe Tax keeps working)', async () => {
    standIn.clearRequests();
    await adapter().createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 40 });
    const body = standIn.requests[0]!.body;
    for (const param of ['automatic_tax', 'tax_id_collection', 'invoice_creation', 'customer_update'])
      expect(body[param]).toBeUndefined();
  });

  it('a one-time listing: automatic tax, tax IDs and an invoice; recorded before tax', async () => {
    standIn.clearRequests();
    const session = await taxed().createCheckout({ ...request, plan: 'basic', kind: 'basic', version: 41 });
    expect(standIn.requests[0]!.body).toMatchObject({
      mode: 'payment',
      automatic_tax: { enabled: 'true' },
      tax_id_collection: { enabled: 'true' },
      invoice_creation: { enabled: 'true' },
      customer_email: 'a@example.com',
    });
    expect(standIn.requests[0]!.body.customer_update).toBeUndefined();
    expect(session).toMatchObject({ mode: 'payment', amountTotal: 1590 });
  });

  it('a subscription gets no invoice_creation (Stripe refuses it there; subscriptions invoice anyway)', async () => {
    standIn.clearRequests();
    await taxed().createCheckout({ ...request, plan: 'sponsored', kind: 'sponsored', version: 42 });
    expect(standIn.requests[0]!.body).toMatchObject({
      mode: 'subscription',
      automatic_tax: { enabled: 'true' },
      tax_id_collection: { enabled: 'true' },
    });
    expect(standIn.requests[0]!.body.invoice_creation).toBeUndefined();
  });

  it('a membership for an existing customer lets Checkout save the address and business name Stripe needs', async () => {
    standIn.clearRequests();
    const base = {
      accountId: siteId,
      tier: 'member' as const,
      email: 'm@example.com',
      origin: 'https://tooldir.example',
    };
    await taxed().createMembershipCheckout({ ...base, customerId: 'cus_known' });
    const bucket = Math.floor(NOW.getTime() / 600_000);
    // A session for the customer is keyed apart from the one made before the account had it.
    expect(standIn.requests[0]!.idempotencyKey).toBe(`membership-${siteId}-member-${bucket}-cus_known`);
    expect(standIn.requests[0]!.body).toMatchObject({
      customer: 'cus_known',
      automatic_tax: { enabled: 'true' },
      tax_id_collection: { enabled: 'true' },
      customer_update: { address: 'auto', name: 'auto' },
    });
    // Only the part that needs it: automatic tax alone saves the address, tax IDs alone the name.
    standIn.clearRequests();
    await taxed({ STRIPE_TAX_ID_COLLECTION: 'off' }).createMembershipCheckout({
      ...base,
      tier: 'member',
      customerId: 'cus_known',
      accountId: crypto.randomUUID(),
    });
    expect(standIn.requests[0]!.body.customer_update).toEqual({ address: 'auto' });
    standIn.clearRequests();
    await taxed().createMembershipCheckout({ ...base, accountId: crypto.randomUUID() });
    expect(standIn.requests[0]!.body).toMatchObject({
      customer_email: 'm@example.com',
      automatic_tax: { enabled: 'true' },
    });
    expect(standIn.requests[0]!.body.customer_update).toBeUndefined();
  });

  it('rejects a value that is not a switch, naming the variable', () => {
    expect(() => stripeConfig(standIn.url, { STRIPE_AUTOMATIC_TAX: 'yes' })).toThrow(/STRIPE_AUTOMATIC_TAX/);
    expect(stripeConfig(standIn.url, { STRIPE_AUTOMATIC_TAX: 'true', STRIPE_INVOICE_CREATION: '1' }).tax).toEqual({
      automatic: true,
      idCollection: false,
      invoiceCreation: true,
    });
    expect(stripeConfig(standIn.url).tax).toEqual({ automatic: false, idCollection: false, invoiceCreation: false });
  });
});

describe('Stripe adapter: Customer Portal and replaced subscriptions', () => {
  it("opens a portal session for the account's customer, returning to the account page", async () => {
    standIn.clearRequests();
    const portal = await adapter().createBillingPortal({
      customerId: 'cus_portal_1',
      returnUrl: 'https://tooldir.example/account',
    });
    expect(portal.url).toMatch(new RegExp(`^${standIn.url}/p/session/bps_`));
    expect(standIn.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/billing_portal/sessions',
      body: { customer: 'cus_portal_1', return_url: 'https://tooldir.example/account' },
    });
    standIn.setDown('error');
    try {
      await expect(adapter().createBillingPortal({ customerId: 'cus_portal_1', returnUrl: 'x' })).rejects.toMatchObject(
        { code: 'service_unavailable' },
      );
    } finally {
      standIn.setDown(false);
    }
  });

  it('cancels a replaced membership subscription with proration, and again without error', async () => {
    standIn.clearRequests();
    await adapter().cancelReplacedSubscription('sub_replaced_1');
    await adapter().cancelReplacedSubscription('sub_replaced_1');
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'DELETE /v1/subscriptions/sub_replaced_1',
      'DELETE /v1/subscriptions/sub_replaced_1',
    ]);
    expect(standIn.requests[0]).toMatchObject({ body: { prorate: 'true' }, idempotencyKey: 'replaced-sub_replaced_1' });
    expect(standIn.cancelledSubscriptions).toEqual(['sub_replaced_1']);
  });

  it('names the hosted pages a form may redirect to (Checkout, the portal, a stand-in)', () => {
    expect(adapter().hostedOrigins).toEqual([
      'https://checkout.stripe.com',
      'https://billing.stripe.com',
      new URL(standIn.url).origin,
    ]);
  });
});
