// The events the local checkout and billing page send are Stripe's own shapes: the same top-level fields as the
// tests' independent fixtures of the pinned API version, a signature stripe-node verifies, and the values the
// webhook reads (src/payments/stripe-event.ts) where Stripe puts them.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  localCompletedEvent,
  localMembershipEvents,
  localSubscriptionDeletedEvent,
  signLikeStripe,
} from '../../../functions/pages/local-checkout-event';
import { checkoutSessionView, subscriptionView } from '../../../src/payments/stripe-event';
import { membershipPrices } from '../../../src/catalog/plans';
import {
  checkoutSessionFixture,
  eventFixture,
  PINNED_API_VERSION,
  subscriptionFixture,
} from '../../helpers/stripe/stripe-fixtures';

const NOW = new Date('2026-11-21T19:30:00.000Z');
const SECRET = 'whsec_local_objects_test';
const ACCOUNT = '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a';
const membership = {
  accountId: ACCOUNT,
  email: 'buyer@example.com',
  tier: 'memberFeature' as const,
  amountTotal: 9900,
  currency: 'usd',
  ref: 'ref_local_abc',
  customerId: null,
  subscriptionId: null,
  expiresAt: new Date(NOW.getTime() + 3600_000),
};
const keys = (o: object) => Object.keys(o).sort();
const parse = (body: string) =>
  JSON.parse(body) as {
    id: string;
    type: string;
    created: number;
    api_version: string;
    data: { object: Record<string, unknown> };
  };

describe('local Stripe events', () => {
  it('a paid membership is checkout.session.completed (subscription mode) and customer.subscription.created, complete objects', () => {
    const [completedBody, createdBody] = localMembershipEvents(
      membership,
      'cs_local_ABC123',
      NOW,
      'http://127.0.0.1:8787',
    );
    const completed = parse(completedBody!);
    const created = parse(createdBody!);
    const fixture = parse(eventFixture('checkout.session.completed', checkoutSessionFixture()));
    expect(keys(completed)).toEqual(keys(fixture));
    expect(completed).toMatchObject({
      type: 'checkout.session.completed',
      api_version: PINNED_API_VERSION,
      created: NOW.getTime() / 1000,
    });
    expect(keys(completed.data.object)).toEqual(keys(checkoutSessionFixture()));
    expect(keys(created.data.object)).toEqual(keys(subscriptionFixture()));
    expect(keys((created.data.object.items as { data: object[] }).data[0]!)).toEqual(
      keys(subscriptionFixture().items.data[0]!),
    );

    expect(checkoutSessionView(completed.data.object)).toEqual({
      sessionId: 'cs_local_ABC123',
      mode: 'subscription',
      paymentStatus: 'paid',
      amountTotal: membershipPrices.memberFeature.amountCents,
      amountTax: 0,
      currency: 'usd',
      clientReferenceId: ACCOUNT,
      subscriptionId: 'sub_local_ABC123',
      customerId: `cus_local_${ACCOUNT.replaceAll('-', '')}`,
      invoiceId: 'in_local_ABC123',
    });
    expect(completed.data.object).toMatchObject({
      customer_email: 'buyer@example.com',
      success_url: 'http://127.0.0.1:8787/checkout/membership',
      status: 'complete',
    });
    expect(subscriptionView(created.data.object)).toEqual({
      subscriptionId: 'sub_local_ABC123',
      status: 'active',
      customerId: `cus_local_${ACCOUNT.replaceAll('-', '')}`,
      priceIds: ['price_local_memberFeature'],
      periodEnd: new Date('2026-12-21T19:30:00.000Z').getTime() / 1000,
      ref: 'ref_local_abc',
    });
    // An account that already has a customer keeps it, as a session made with `customer` bills that customer.
    const [again] = localMembershipEvents({ ...membership, customerId: 'cus_local_known' }, 'cs_local_XYZ', NOW, '');
    expect(parse(again!).data.object).toMatchObject({ customer: 'cus_local_known', customer_email: null });
  });

  it('a paid listing is a complete checkout.session.completed too', () => {
    const body = localCompletedEvent(
      {
        kind: 'pending',
        siteId: ACCOUNT,
        name: 'Acme',
        url: 'https://acme.example',
        plan: 'featured',
        version: 2,
        state: 'open',
        stateNote: null,
        expiresAt: new Date(NOW.getTime() + 3600_000),
      },
      'cs_local_P1',
      NOW,
      'http://127.0.0.1:8787',
    );
    const object = parse(body).data.object;
    expect(keys(object)).toEqual(keys(checkoutSessionFixture()));
    expect(checkoutSessionView(object)).toMatchObject({
      mode: 'payment',
      amountTotal: 1990,
      clientReferenceId: ACCOUNT,
      paymentIntentId: expect.stringMatching(/^pi_local_/),
    });
    expect(object.metadata).toEqual({ site_id: ACCOUNT, plan: 'featured', version: '2' });
  });

  it('a local cancel is customer.subscription.deleted of the account’s subscription, status canceled', () => {
    const body = localSubscriptionDeletedEvent(
      {
        accountId: ACCOUNT,
        email: 'buyer@example.com',
        tier: 'member',
        status: 'active',
        periodEnd: new Date('2026-12-21T19:30:00.000Z'),
        active: true,
        source: 'stripe',
        customerId: 'cus_local_1',
        subscriptionId: 'sub_local_1',
        ref: 'ref_local_1',
        startedAt: NOW,
      },
      new Date('2026-11-25T10:00:00.000Z'),
    );
    const event = parse(body);
    expect(event.type).toBe('customer.subscription.deleted');
    expect(keys(event.data.object)).toEqual(keys(subscriptionFixture()));
    expect(event.data.object).toMatchObject({
      status: 'canceled',
      canceled_at: event.created,
      ended_at: event.created,
      cancellation_details: { reason: 'cancellation_requested' },
    });
    expect(subscriptionView(event.data.object)).toMatchObject({
      subscriptionId: 'sub_local_1',
      customerId: 'cus_local_1',
      priceIds: ['price_local_member'],
      ref: 'ref_local_1',
    });
  });

  it('is signed the way stripe-node verifies: a changed byte fails', async () => {
    const [body] = localMembershipEvents(membership, 'cs_local_SIG', NOW, '');
    const header = await signLikeStripe(body!, SECRET, NOW);
    const verified = await Stripe.webhooks.constructEventAsync(
      body!,
      header,
      SECRET,
      300,
      Stripe.createSubtleCryptoProvider(),
      NOW.getTime(),
    );
    expect(verified.type).toBe('checkout.session.completed');
    await expect(
      Stripe.webhooks.constructEventAsync(
        body!.replace('9900', '9901'),
        header,
        SECRET,
        300,
        Stripe.createSubtleCryptoProvider(),
        NOW.getTime(),
      ),
    ).rejects.toThrow();
  });
});
