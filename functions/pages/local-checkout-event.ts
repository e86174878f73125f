// Builds and signs the event the local checkout sends: the same wire format and signature Stripe uses.
import Stripe from 'stripe';
import { randomToken } from '../../src/crypto';
import type { CheckoutLookup } from '../../src/payments/checkout-lookup';
import { planKind, planPrices } from '../../src/submissions/plans';

type PendingCheckout = Extract<CheckoutLookup, { kind: 'pending' }>;

/** A `checkout.session.completed` event (payment_status paid) for the pending record's current session. */
export function localCompletedEvent(c: PendingCheckout, sessionId: string, now: Date): string {
  const kind = planKind(c.plan);
  const subscription = planPrices[kind].recurring;
  const created = Math.floor(now.getTime() / 1000);
  return JSON.stringify({
    id: `evt_local_${randomToken(24)}`,
    object: 'event',
    api_version: null,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: subscription ? 'subscription' : 'payment',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: c.siteId,
        payment_intent: subscription ? null : `pi_local_${randomToken(24)}`,
        subscription: subscription ? `sub_local_${randomToken(24)}` : null,
        customer: null,
        amount_total: planPrices[kind].amountCents,
        currency: planPrices[kind].currency,
        created,
        metadata: { site_id: c.siteId, plan: c.plan, version: String(c.version) },
      },
    },
  });
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
