import { describe, expect, it } from 'vitest';
import { checkoutSessionView, invoiceView, subscriptionView } from '../../../src/payments/stripe-event';

describe('Stripe object views', () => {
  it('reads a Checkout Session, expanded or not', () => {
    expect(
      checkoutSessionView({
        id: 'cs_1',
        mode: 'subscription',
        payment_status: 'paid',
        client_reference_id: 'site',
        amount_total: 2990,
        currency: 'usd',
        payment_intent: null,
        subscription: { id: 'sub_1' },
        customer: 'cus_1',
        invoice: 'in_1',
        metadata: { plan: 'pro', n: 5 },
      }),
    ).toEqual({
      sessionId: 'cs_1',
      mode: 'subscription',
      paymentStatus: 'paid',
      amountTotal: 2990,
      currency: 'usd',
      clientReferenceId: 'site',
      paymentIntentId: undefined,
      subscriptionId: 'sub_1',
      customerId: 'cus_1',
      invoiceId: 'in_1',
    });
    // Nothing guessed: a missing mode, amount or currency stays missing (and never matches our record).
    expect(checkoutSessionView({})).toEqual({ sessionId: '', paymentStatus: 'unpaid' });
  });

  it('reads a subscription: period end from the items (new API) or the subscription (old API)', () => {
    const sub = {
      id: 'sub_1',
      status: 'active',
      customer: 'cus_1',
      items: {
        data: [
          { price: { id: 'price_a' }, current_period_end: 200 },
          { price: 'price_b', current_period_end: 300 },
        ],
      },
    };
    expect(subscriptionView(sub)).toEqual({
      subscriptionId: 'sub_1',
      status: 'active',
      customerId: 'cus_1',
      priceIds: ['price_a', 'price_b'],
      periodEnd: 300,
    });
    expect(subscriptionView({ ...sub, metadata: { tooldir_ref: 'ref_1', purpose: 'membership' } }).ref).toBe('ref_1');
    expect(subscriptionView({ ...sub, current_period_end: 100 }).periodEnd).toBe(100);
  });

  it('reads an invoice in the new (parent.subscription_details) and old (subscription) shapes', () => {
    const lines = { data: [{ period: { end: 500 }, pricing: { price_details: { price: 'price_m' } } }] };
    expect(
      invoiceView({
        id: 'in_1',
        customer: 'cus_1',
        parent: { subscription_details: { subscription: 'sub_1', metadata: { tooldir_ref: 'ref_9' } } },
        lines,
      }),
    ).toEqual({
      invoiceId: 'in_1',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      priceIds: ['price_m'],
      periodEnd: 500,
      ref: 'ref_9',
    });
    expect(
      invoiceView({
        id: 'in_2',
        subscription: 'sub_2',
        lines: { data: [{ period: { end: 9 }, price: { id: 'price_x' } }] },
      }),
    ).toMatchObject({ subscriptionId: 'sub_2', priceIds: ['price_x'], periodEnd: 9 });
  });
});
