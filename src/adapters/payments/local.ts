import type { CheckoutRequest, CheckoutSession, ListingKind, ListingPrice, PaymentsAdapter } from './types';
import { CHECKOUT_LIFETIME_MS } from './types';
import { randomToken } from '../../crypto';
import { ServiceError } from '../../errors';

/**
 * Local payments: the checkout link is this service's own /checkout/{session_id} page, which completes
 * payment by sending a correctly signed Stripe event to the real webhook (functions/pages/checkout.ts).
 * `prices` is the plans' price list (planPrices in src/submissions/plans.ts).
 */
export function createLocalPayments(prices: Record<ListingKind, ListingPrice>, now: () => Date = () => new Date()): PaymentsAdapter {
  return {
    kind: 'local',
    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      const sessionId = `cs_local_${randomToken(24)}`;
      const price = prices[request.kind];
      return {
        sessionId,
        url: `${request.origin}/checkout/${sessionId}`,
        expiresAt: new Date(now().getTime() + CHECKOUT_LIFETIME_MS),
        // The local page charges exactly the plan's price, and is recorded like a Stripe session.
        mode: price.recurring ? 'subscription' : 'payment',
        amountTotal: price.amountCents,
        currency: price.currency,
        promotionCodes: false,
        ...(price.recurring && { ref: `ref_local_${randomToken(24)}` }),
      };
    },
    // Locally the operator sets memberships (PUT /api/v1/admin/accounts/{id}/membership); nothing to sell.
    async createMembershipCheckout(): Promise<CheckoutSession> {
      throw new ServiceError('plan_unavailable', 'Memberships are sold through Stripe; without Stripe the operator sets them.');
    },
    // The local page refuses a session whose pending record no longer names it, so nothing to do here.
    async expireCheckout() {},
    async refund() {},
    async cancelSubscriptionAndRefund() {},
  };
}
