// Builds and signs the events the local checkout and the local billing page send: the same wire format, objects
// and signature Stripe uses, so the webhook cannot tell them from Stripe's (functions/pages/local-stripe-objects.ts).
import Stripe from 'stripe';
import { SUBSCRIPTION_REF_KEY } from '../../src/adapters/payments/types';
import type { LocalMembership } from '../../src/accounts/billing';
import type { CheckoutLookup } from '../../src/payments/checkout-lookup';
import type { MembershipCheckoutLookup } from '../../src/payments/membership-checkout-lookup';
import { membershipPrices, planKind, planPrices, type MembershipTier } from '../../src/catalog/plans';
import { completedSession, eventBody, localId, subscriptionObject } from './local-stripe-objects';

type PendingCheckout = Extract<CheckoutLookup, { kind: 'pending' }>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const DAY = 86_400;

/** The same day of the next month (the last day when it has fewer days), like Stripe's monthly billing anchor. */
export function oneMonthLater(date: Date): Date {
  const next = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return next;
}

/** The local Price of a membership tier: what its subscription item carries. */
const localPrice = (tier: MembershipTier) => ({
  id: `price_local_${tier}`,
  product: 'prod_local_membership',
  amountCents: membershipPrices[tier].amountCents,
  currency: membershipPrices[tier].currency,
});

/** `checkout.session.completed` (payment_status paid) for the pending record's current session. */
export function localCompletedEvent(c: PendingCheckout, sessionId: string, now: Date, origin: string): string {
  const price = planPrices[planKind(c.plan)];
  const subscription = price.recurring;
  const created = seconds(now);
  const session = completedSession({
    id: sessionId,
    mode: subscription ? 'subscription' : 'payment',
    amountCents: price.amountCents,
    currency: price.currency,
    created: seconds(c.expiresAt) - DAY,
    expiresAt: seconds(c.expiresAt),
    clientReferenceId: c.siteId,
    metadata: { site_id: c.siteId, plan: c.plan, version: String(c.version) },
    email: null,
    customer: subscription ? localId('cus') : null,
    existingCustomer: false,
    paymentIntent: subscription ? null : localId('pi'),
    subscription: subscription ? localId('sub') : null,
    invoice: subscription ? localId('in') : null,
    successUrl: `${origin}/checkout/success?session_id=${sessionId}`,
    cancelUrl: `${origin}/checkout/cancelled?site_id=${c.siteId}`,
  });
  return eventBody('checkout.session.completed', session, created);
}

/**
 * What Stripe sends when a membership checkout is paid: `checkout.session.completed` in subscription mode (links
 * the customer and the subscription, starts the tier) and `customer.subscription.created`, which carries the
 * paid period (a month from now) and our reference in its metadata. The tier's price from the plan table is
 * charged; the account's Stripe customer is reused when it has one.
 */
export function localMembershipEvents(
  m: MembershipCheckoutLookup,
  sessionId: string,
  now: Date,
  origin: string,
): string[] {
  const created = seconds(now);
  // Derived, not random: a session is paid once on Stripe, so a double-clicked Pay must describe the same
  // subscription (and the account the same customer), never start a second one.
  const suffix = sessionId.slice(sessionId.lastIndexOf('_') + 1);
  const customer = m.customerId ?? `cus_local_${m.accountId.replaceAll('-', '')}`;
  const subscription = `sub_local_${suffix}`;
  const invoice = `in_local_${suffix}`;
  const price = localPrice(m.tier);
  const metadata = { purpose: 'membership', account_id: m.accountId, tier: m.tier };
  const session = completedSession({
    id: sessionId,
    mode: 'subscription',
    amountCents: price.amountCents,
    currency: price.currency,
    created: seconds(m.expiresAt) - DAY,
    expiresAt: seconds(m.expiresAt),
    clientReferenceId: m.accountId,
    metadata,
    email: m.email,
    customer,
    existingCustomer: m.customerId !== null,
    paymentIntent: null,
    subscription,
    invoice,
    successUrl: `${origin}/checkout/membership`,
    cancelUrl: `${origin}/checkout/cancelled`,
  });
  const started = subscriptionObject({
    id: subscription,
    customer,
    price,
    created,
    periodStart: created,
    periodEnd: seconds(oneMonthLater(now)),
    metadata: { ...metadata, ...(m.ref && { [SUBSCRIPTION_REF_KEY]: m.ref }) },
    latestInvoice: invoice,
  });
  return [
    eventBody('checkout.session.completed', session, created),
    eventBody('customer.subscription.created', started, created),
  ];
}

/**
 * `customer.subscription.deleted` for the account's local membership subscription, cancelled at once (what
 * Stripe sends when a Customer Portal set to cancel immediately is used).
 */
export function localSubscriptionDeletedEvent(m: LocalMembership, now: Date): string {
  const created = seconds(now);
  const start = seconds(m.startedAt ?? now);
  const periodEnd = m.periodEnd ? seconds(m.periodEnd) : created;
  const ended = subscriptionObject({
    id: m.subscriptionId,
    customer: m.customerId,
    price: localPrice(m.tier),
    created: start,
    // A local subscription never renews (no clock runs it): its one period began when it started.
    periodStart: Math.min(start, periodEnd),
    periodEnd,
    metadata: {
      purpose: 'membership',
      account_id: m.accountId,
      tier: m.tier,
      ...(m.ref && { [SUBSCRIPTION_REF_KEY]: m.ref }),
    },
    latestInvoice: null,
    canceledAt: created,
  });
  return eventBody('customer.subscription.deleted', ended, created);
}

/** The Stripe-Signature header for `payload`, computed by stripe-node itself (t=...,v1=HMAC-SHA256). */
export function signLikeStripe(payload: string, secret: string, now: Date): Promise<string> {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp: Math.floor(now.getTime() / 1000),
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
}
