import Stripe from 'stripe';
import { ServiceError } from '../../errors';
import type {
  CheckoutRequest,
  CheckoutSession,
  FullRefundRequest,
  MembershipCheckoutRequest,
  PaymentsAdapter,
  RefundMade,
} from './types';
import { CHECKOUT_LIFETIME_MS, SUBSCRIPTION_REF_KEY } from './types';
import { planPrices } from '../../catalog/plans';

import {
  checkoutIdempotencyKey,
  recorded,
  subscriptionRef,
  taxParams,
  type StripeConfig,
} from './stripe-checkout-params';

export { checkoutIdempotencyKey, taxParams };

const made = (refund: Stripe.Refund): RefundMade => ({
  refundId: refund.id,
  amount: refund.amount,
  currency: refund.currency,
});

/**
 * A sponsorship rejected before it went live: its subscription is cancelled at once (no proration: the refund
 * gives everything back) and the payment intent of its latest paid invoice, the only one yet, is what to refund.
 */
async function cancelAndFindFirstPayment(stripe: Stripe, subscriptionId: string): Promise<string | undefined> {
  try {
    await stripe.subscriptions.cancel(subscriptionId, { prorate: false });
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== 400 && status !== 404) throw error;
  }
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const invoice =
    typeof subscription.latest_invoice === 'string' ? subscription.latest_invoice : subscription.latest_invoice?.id;
  if (!invoice) return undefined;
  const payments = await stripe.invoicePayments.list({ invoice, status: 'paid', limit: 1 });
  const intent = payments.data[0]?.payment.payment_intent;
  return typeof intent === 'string' ? intent : intent?.id;
}

/** One Stripe client per isolate, built on first use (nothing heavy at module top level). */
export function createStripeClient(config: StripeConfig): Stripe {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 8000,
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'http:' ? 80 : 443),
      protocol: api.protocol.replace(':', '') as 'http' | 'https',
    }),
  });
}

/** Checkout Sessions in payment mode (a one-time plan) or subscription mode (a recurring one: planPrices). */
export function createStripePayments(config: StripeConfig, now: () => Date = () => new Date()): PaymentsAdapter {
  let client: Stripe | undefined;
  const stripe = () => (client ??= createStripeClient(config));

  return {
    kind: 'stripe',
    // Stripe hosts Checkout and the Customer Portal; a STRIPE_API_URL stand-in (tests) hosts its pages itself.
    hostedOrigins: [
      'https://checkout.stripe.com',
      'https://billing.stripe.com',
      ...(config.apiUrl ? [new URL(config.apiUrl).origin] : []),
    ],
    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      const { kind } = request;
      const price = config.prices[kind];
      if (!price) throw new ServiceError('plan_unavailable', `The ${request.plan} plan is not available right now.`);
      const subscription = planPrices[kind].recurring;
      // Stripe accepts at most 24 h from its own clock; a minute of slack absorbs clock skew.
      const expiresAt = Math.floor((now().getTime() + CHECKOUT_LIFETIME_MS) / 1000) - 60;
      const metadata = { site_id: request.siteId, plan: request.plan, version: String(request.version) };
      const params = (ref: string | undefined): Stripe.Checkout.SessionCreateParams => ({
        mode: subscription ? 'subscription' : 'payment',
        line_items: [{ price, quantity: 1 }],
        client_reference_id: request.siteId,
        expires_at: expiresAt,
        success_url: `${request.origin}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${request.origin}/checkout/cancelled?site_id=${request.siteId}`,
        metadata,
        ...(config.promotionCodes && { allow_promotion_codes: true }),
        ...taxParams(config.tax, subscription ? 'subscription' : 'payment', undefined),
        ...(request.email && { customer_email: request.email }),
        // Stripe's limit for the text is 1200 characters; ours is one sentence.
        ...(request.notice && { custom_text: { submit: { message: request.notice.slice(0, 1200) } } }),
        ...(subscription
          ? {
              subscription_data: {
                metadata: { ...metadata, purpose: 'sponsorship', [SUBSCRIPTION_REF_KEY]: ref ?? null },
              },
            }
          : { payment_intent_data: { metadata } }),
      });
      const key = await checkoutIdempotencyKey(request);
      const create = async (idempotencyKey: string) => {
        const ref = subscription ? await subscriptionRef(config, idempotencyKey) : undefined;
        return recorded(await stripe().checkout.sessions.create(params(ref), { idempotencyKey }), ref);
      };
      try {
        try {
          return await create(key);
        } catch (error) {
          // The key was first used with another expiry (an earlier attempt of this version reached Stripe but was
          // never stored, and the clock has moved on since): that session is unreachable, so a fresh key is safe,
          // and without it this URL could not get a link for the next 24 hours.
          if ((error as { type?: string }).type !== 'StripeIdempotencyError') throw error;
          return await create(`${key}-${expiresAt}`);
        }
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError('checkout_failed', 'The checkout could not be created. Please retry later.', {}, error);
      }
    },
    async createMembershipCheckout(request: MembershipCheckoutRequest): Promise<CheckoutSession> {
      const price = config.prices[request.tier];
      if (!price)
        throw new ServiceError('plan_unavailable', `The ${request.tier} membership is not available right now.`);
      // Informational only: the webhook reads account and tier from our record of the session (docs/payments.md).
      const metadata = { purpose: 'membership', account_id: request.accountId, tier: request.tier };
      // Double clicks within ten minutes get the same session back instead of a second one. The customer is part
      // of the key: once a first membership linked one, the next session is made for it (other parameters), and
      // reusing the key with them would be refused by Stripe.
      const bucket = Math.floor(now().getTime() / 600_000);
      const idempotencyKey = `membership-${request.accountId}-${request.tier}-${bucket}${request.customerId ? `-${request.customerId}` : ''}`;
      const ref = await subscriptionRef(config, idempotencyKey);
      try {
        const session = await stripe().checkout.sessions.create(
          {
            mode: 'subscription',
            line_items: [{ price, quantity: 1 }],
            client_reference_id: request.accountId,
            success_url: `${request.origin}/checkout/membership`,
            cancel_url: `${request.origin}/checkout/cancelled`,
            metadata,
            ...(config.promotionCodes && { allow_promotion_codes: true }),
            ...taxParams(config.tax, 'subscription', request.customerId ?? undefined),
            subscription_data: { metadata: { ...metadata, [SUBSCRIPTION_REF_KEY]: ref } },
            ...(request.customerId ? { customer: request.customerId } : { customer_email: request.email }),
          },
          { idempotencyKey },
        );
        return recorded(session, ref);
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError('checkout_failed', 'The checkout could not be created. Please retry later.', {}, error);
      }
    },
    async expireCheckout(sessionId: string): Promise<void> {
      try {
        await stripe().checkout.sessions.expire(sessionId);
      } catch (error) {
        // Already expired or completed sessions answer 400; that is the state we wanted anyway.
        if ((error as { statusCode?: number }).statusCode !== 400) throw error;
      }
    },
    async refund(paymentIntentId: string, reason: string): Promise<void> {
      await stripe().refunds.create(
        { payment_intent: paymentIntentId, metadata: { reason: reason.slice(0, 450) } },
        { idempotencyKey: `refund-${paymentIntentId}` },
      );
    },
    async invoiceUrl(invoiceId: string): Promise<string | undefined> {
      const invoice = await stripe().invoices.retrieve(invoiceId);
      return invoice.hosted_invoice_url ?? undefined;
    },
    async refundInFull(request: FullRefundRequest): Promise<RefundMade> {
      const metadata = { reason: request.reason.slice(0, 450) };
      let paymentIntentId = request.paymentIntentId;
      if (!paymentIntentId && request.subscriptionId) {
        paymentIntentId = await cancelAndFindFirstPayment(stripe(), request.subscriptionId);
      }
      if (!paymentIntentId) throw new Error('refundInFull: nothing paid to refund');
      try {
        return made(
          await stripe().refunds.create(
            { payment_intent: paymentIntentId, metadata },
            { idempotencyKey: request.idempotencyKey },
          ),
        );
      } catch (error) {
        // Refunded already (by this key more than 24 hours ago, or from the dashboard): that refund is the answer.
        if ((error as { code?: string }).code !== 'charge_already_refunded') throw error;
        const [existing] = (await stripe().refunds.list({ payment_intent: paymentIntentId, limit: 1 })).data;
        if (!existing) throw error;
        return made(existing);
      }
    },
    async cancelSubscriptionAndRefund(
      subscriptionId: string,
      invoiceId: string | undefined,
      reason: string,
    ): Promise<void> {
      try {
        await stripe().subscriptions.cancel(subscriptionId, { prorate: false });
      } catch (error) {
        // An already cancelled (or unknown) subscription: nothing left to stop.
        const status = (error as { statusCode?: number }).statusCode;
        if (status !== 400 && status !== 404) throw error;
      }
      if (!invoiceId) return;
      const payments = await stripe().invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 10 });
      for (const payment of payments.data) {
        const intent = payment.payment.payment_intent;
        const id = typeof intent === 'string' ? intent : intent?.id;
        if (id) await this.refund(id, reason);
      }
    },
    async cancelReplacedSubscription(subscriptionId: string): Promise<void> {
      try {
        // prorate: the unused part of the period becomes a credit on the customer's next invoice (the new tier's).
        await stripe().subscriptions.cancel(
          subscriptionId,
          { prorate: true },
          { idempotencyKey: `replaced-${subscriptionId}` },
        );
      } catch (error) {
        // Already cancelled (or gone): nothing left to stop.
        const status = (error as { statusCode?: number }).statusCode;
        if (status !== 400 && status !== 404) throw error;
      }
    },
    async cancelSubscriptionAtPeriodEnd(subscriptionId: string): Promise<void> {
      try {
        // Stripe then sends customer.subscription.updated (cancel_at_period_end) and, when the period ends,
        // customer.subscription.deleted, which ends the sponsor slot (src/payments/sponsorships.ts).
        await stripe().subscriptions.update(
          subscriptionId,
          { cancel_at_period_end: true, proration_behavior: 'none' },
          { idempotencyKey: `withdrawn-${subscriptionId}` },
        );
      } catch (error) {
        // Already cancelled (or gone): nothing left to stop.
        const status = (error as { statusCode?: number }).statusCode;
        if (status !== 400 && status !== 404) throw error;
      }
    },
    async createBillingPortal(request: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
      try {
        const session = await stripe().billingPortal.sessions.create({
          customer: request.customerId,
          return_url: request.returnUrl,
        });
        return { url: session.url };
      } catch (error) {
        throw new ServiceError(
          'service_unavailable',
          'The billing page could not be opened. Please retry later.',
          {},
          error,
        );
      }
    },
  };
}
