import type {
  CheckoutRequest,
  CheckoutSession,
  ListingKind,
  ListingPrice,
  MembershipCheckoutRequest,
  PaymentsAdapter,
} from './types';
import { CHECKOUT_LIFETIME_MS } from './types';
import { randomToken } from '../../crypto';
import { ServiceError } from '../../errors';

/** The local checkout's session ids: functions/pages/checkout.ts serves /checkout/{id} for them. */
const localSessionId = () => `cs_local_${randomToken(24)}`;

/**
 * Local payments: the checkout link is this service's own /checkout/{session_id} page, which completes
 * payment by sending correctly signed Stripe events to the real webhook (functions/pages/checkout.ts).
 * `prices` is the plans' price list (planPrices in src/catalog/plans.ts), `memberships` the tiers'
 * (membershipPrices); without it memberships are not sold here (500 plan_unavailable).
 */
export function createLocalPayments(
  prices: Record<ListingKind, ListingPrice>,
  now: () => Date = () => new Date(),
  memberships?: Record<MembershipCheckoutRequest['tier'], ListingPrice>,
): PaymentsAdapter {
  /** Recorded like a Stripe session: the local page charges exactly this price. */
  const session = (price: ListingPrice, origin: string): CheckoutSession => {
    const sessionId = localSessionId();
    return {
      sessionId,
      url: `${origin}/checkout/${sessionId}`,
      expiresAt: new Date(now().getTime() + CHECKOUT_LIFETIME_MS),
      mode: price.recurring ? 'subscription' : 'payment',
      amountTotal: price.amountCents,
      currency: price.currency,
      promotionCodes: false,
      // The reference a subscription's events carry in their metadata, as a Stripe session's would.
      ...(price.recurring && { ref: `ref_local_${randomToken(24)}` }),
    };
  };
  return {
    kind: 'local',
    // Its checkout and billing pages are this service's own.
    hostedOrigins: [],
    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      return session(prices[request.kind], request.origin);
    },
    async createMembershipCheckout(request: MembershipCheckoutRequest): Promise<CheckoutSession> {
      const price = memberships?.[request.tier];
      if (!price)
        throw new ServiceError('plan_unavailable', `The ${request.tier} membership is not available right now.`);
      return session(price, request.origin);
    },
    // The local page refuses a session whose pending record no longer names it, so nothing to do here.
    async expireCheckout() {},
    // No money moved, so nothing to give back or stop: the records say what happened.
    async refund() {},
    async cancelSubscriptionAndRefund() {},
    async cancelReplacedSubscription() {},
    // The local billing page (/account/billing) stands in for Stripe's Customer Portal.
    async createBillingPortal(): Promise<never> {
      throw new ServiceError(
        'plan_unavailable',
        "Billing is managed on this server's own billing page without Stripe.",
      );
    },
  };
}
