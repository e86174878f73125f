// Stripe Subscription and Invoice objects as they arrive in webhook events, plus the Prices that switch the
// app into Stripe mode: shared by the subscription suites on every driver.
import type Stripe from 'stripe';
import { invoiceFixture, subscriptionFixture } from './stripe-fixtures';

/** Price ids for STRIPE_PRICE_* (Stripe mode); pass with a dummy STRIPE_SECRET_KEY and a recording adapter. */
export const PRICES = {
  STRIPE_PRICE_BASIC: 'price_basic',
  STRIPE_PRICE_FEATURED: 'price_featured',
  STRIPE_PRICE_SPONSORED: 'price_sponsored',
  STRIPE_PRICE_MEMBER: 'price_member',
  STRIPE_PRICE_MEMBER_FEATURE: 'price_member_feature',
};

/** The env of an app in Stripe mode whose payments adapter is replaced (nothing leaves the process). */
export const stripeModeEnv = () => ({ STRIPE_SECRET_KEY: 'sk_test_not_used', ...PRICES });

export const nowSeconds = () => Math.floor(Date.now() / 1000);
export const rand = () => crypto.randomUUID().slice(0, 12);
/** Unix seconds → the ISO text the account queries format (whole seconds, Z). */
export const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** A complete Subscription (stripe-fixtures.ts) with one item of `price`. */
export function subscription(
  id: string,
  o: {
    status?: Stripe.Subscription.Status;
    price: string;
    customer?: string;
    periodEnd?: number;
    metadata?: Record<string, string>;
  },
): Stripe.Subscription {
  return subscriptionFixture(
    { id, status: o.status ?? 'active', customer: o.customer ?? `cus_${rand()}`, metadata: o.metadata ?? {} },
    { price: o.price, periodEnd: o.periodEnd },
  );
}

/** A complete Invoice (stripe-fixtures.ts) of `subscriptionId` with one line of `price`. */
export function invoice(
  subscriptionId: string,
  o: {
    price: string;
    customer?: string;
    periodEnd?: number;
    subscriptionMetadata?: Record<string, string>;
    status?: Stripe.Invoice.Status;
  },
): Stripe.Invoice {
  return invoiceFixture(
    subscriptionId,
    { ...(o.customer && { customer: o.customer }), ...(o.status && { status: o.status }) },
    { price: o.price, periodEnd: o.periodEnd, subscriptionMetadata: o.subscriptionMetadata },
  );
}
