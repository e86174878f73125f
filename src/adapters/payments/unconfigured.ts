import { ServiceError } from '../../errors';
import type { PaymentsAdapter } from './types';

/**
 * Outside local mode without Stripe: no plan can be bought (500 plan_unavailable) rather than serving the
 * local "Pay" page, which would let anyone queue a submission for free. LOCAL_PAYMENTS=true opts back in
 * (benchmarks and demos on a real PostgreSQL).
 */
export function createUnconfiguredPayments(): PaymentsAdapter {
  const unavailable = async (): Promise<never> => {
    throw new ServiceError('plan_unavailable', 'Payments are not configured on this server. Please retry later.');
  };
  return {
    kind: 'unconfigured',
    hostedOrigins: [],
    createCheckout: unavailable,
    createMembershipCheckout: unavailable,
    async expireCheckout() {},
    async refund() {
      throw new Error('refund requested but no payment provider is configured');
    },
    async invoiceUrl() {
      return undefined;
    },
    async refundInFull(): Promise<never> {
      throw new Error('refund requested but no payment provider is configured');
    },
    async cancelSubscriptionAndRefund() {
      throw new Error('refund requested but no payment provider is configured');
    },
    async cancelReplacedSubscription() {
      throw new Error('subscription cancel requested but no payment provider is configured');
    },
    async cancelSubscriptionAtPeriodEnd() {
      throw new Error('subscription cancel requested but no payment provider is configured');
    },
    createBillingPortal: unavailable,
  };
}
