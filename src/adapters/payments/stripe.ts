import type Stripe from 'stripe';
import type { Config } from '../../config';
import { ServiceError } from '../../errors';
import { planKind } from '../../submissions/plans';
import { sha256Hex } from '../../crypto';
import { createStripeHttp, type StripeHttp } from './stripe-http';
import type { CheckoutRequest, CheckoutSession, PaymentsAdapter } from './types';
import { CHECKOUT_LIFETIME_MS } from './types';

type StripeConfig = NonNullable<Config['stripe']>;

/**
 * One Checkout Session per (pending record, version, parameters): a retried request reuses its session,
 * while two concurrent re-submits with different plans or e-mails never collide on one key.
 */
export async function checkoutIdempotencyKey(request: CheckoutRequest): Promise<string> {
  const { plan, name, url, email } = request;
  const digest = (await sha256Hex(JSON.stringify([plan, name, url, email ?? null]))).slice(0, 16);
  return `checkout-${request.siteId}-v${request.version}-${digest}`;
}

/** One REST client per isolate (fetch-based: see ./stripe-http.ts for why not the SDK). */
export function createStripeClient(config: StripeConfig): StripeHttp {
  return createStripeHttp({ secretKey: config.secretKey, apiUrl: config.apiUrl, timeoutMs: 8000, maxRetries: 1 });
}

/** Checkout Sessions in payment mode (basic, featured) or subscription mode (sponsored). */
export function createStripePayments(config: StripeConfig, now: () => Date = () => new Date()): PaymentsAdapter {
  let client: StripeHttp | undefined;
  const stripe = () => (client ??= createStripeClient(config));

  return {
    kind: 'stripe',
    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      const kind = planKind(request.plan);
      const price = config.prices[kind];
      if (!price) throw new ServiceError('plan_unavailable', `The ${request.plan} plan is not available right now.`);
      const subscription = kind === 'sponsored';
      // Stripe accepts at most 24 h from its own clock; a minute of slack absorbs clock skew.
      const expiresAt = Math.floor((now().getTime() + CHECKOUT_LIFETIME_MS) / 1000) - 60;
      const metadata = { site_id: request.siteId, plan: request.plan, version: String(request.version) };
      try {
        const session = await stripe().post<Pick<Stripe.Checkout.Session, 'id' | 'url' | 'expires_at'>>(
          '/v1/checkout/sessions',
          {
            mode: subscription ? 'subscription' : 'payment',
            line_items: [{ price, quantity: 1 }],
            client_reference_id: request.siteId,
            expires_at: expiresAt,
            success_url: `${request.origin}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
            cancel_url: `${request.origin}/checkout/cancelled?site_id=${request.siteId}`,
            metadata,
            ...(request.email && { customer_email: request.email }),
            ...(subscription
              ? { subscription_data: { metadata: { ...metadata, purpose: 'sponsorship' } } }
              : { payment_intent_data: { metadata } }),
          },
          { idempotencyKey: await checkoutIdempotencyKey(request) },
        );
        if (!session.url) throw new Error('Checkout Session without url');
        return { sessionId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError('checkout_failed', 'The checkout could not be created. Please retry later.', {}, error);
      }
    },
    async expireCheckout(sessionId: string): Promise<void> {
      try {
        await stripe().post(`/v1/checkout/sessions/${encodeURIComponent(sessionId)}/expire`, {});
      } catch (error) {
        // Already expired or completed sessions answer 400; that is the state we wanted anyway.
        if ((error as { statusCode?: number }).statusCode !== 400) throw error;
      }
    },
    async refund(paymentIntentId: string, reason: string): Promise<void> {
      await stripe().post(
        '/v1/refunds',
        { payment_intent: paymentIntentId, metadata: { reason: reason.slice(0, 450) } },
        { idempotencyKey: `refund-${paymentIntentId}` },
      );
    },
  };
}
