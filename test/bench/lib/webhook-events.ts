// Signed Stripe webhook deliveries for the round-trip bench: pending 402 records made payable at the Stripe
// stand-in, and the events Stripe would send for them, memberships and sponsorships.
import { buildStripeEvent, signStripeEvent } from '../../helpers/standins/stripe-signature';
import type { StripeStandIn } from '../../helpers/standins/stripe-api';
import { distinctSubmit } from './seed';

let sequence = 0;
const nextEventId = () => `evt_bench_${process.pid}_${++sequence}`;

/** POSTs `body` to the webhook with a fresh valid signature, as Stripe does on every (re)delivery. */
export function deliverEvent(base: string, body: string, secret: string): Promise<Response> {
  return fetch(`${base}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'stripe-signature': signStripeEvent(body, secret), 'content-type': 'application/json' },
    body,
  });
}

/** One signed-ready event body with a new id. */
export const eventBody = (type: string, object: Record<string, unknown>, created?: number): string =>
  buildStripeEvent(type, object, { id: nextEventId(), created });

/**
 * Submits as a caller without membership (402), then marks its Checkout Session paid at the stand-in:
 * the checkout.session.completed body Stripe would send for it, and the session's subscription (if any).
 */
export async function paidPendingEvent(
  base: string,
  key: string,
  stripe: StripeStandIn,
  plan: 'basic' | 'sponsored' = 'basic',
): Promise<{ siteId: string; body: string; subscriptionId?: string }> {
  const res = await fetch(`${base}/api/v1/submit-site`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...distinctSubmit('hook'), plan }),
  });
  if (res.status !== 402) throw new Error(`expected a 402, got ${res.status} ${await res.text()}`);
  const { site_id: siteId } = (await res.json()) as { site_id: string };
  const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === siteId);
  if (!session) throw new Error(`no checkout session at the stand-in for ${siteId}`);
  const paid = stripe.completeSession(String(session.id));
  const subscriptionId = typeof paid.subscription === 'string' ? paid.subscription : undefined;
  return { siteId, body: eventBody('checkout.session.completed', paid), subscriptionId };
}

/** customer.subscription.updated of a subscription that belongs to no membership Price (a sponsorship). */
export function sponsorshipUpdated(subscriptionId: string, created: number): string {
  return eventBody(
    'customer.subscription.updated',
    { id: subscriptionId, object: 'subscription', status: 'active', customer: 'cus_bench_sponsor', metadata: { purpose: 'sponsorship' }, items: { data: [] } },
    created,
  );
}

/** customer.subscription.updated of our own membership checkout's subscription (account id in its metadata). */
export function membershipUpdated(accountId: string, created: number): string {
  const periodEnd = created + 30 * 86_400;
  return eventBody(
    'customer.subscription.updated',
    {
      id: `sub_bench_member_${accountId.slice(0, 8)}`,
      object: 'subscription',
      status: 'active',
      customer: `cus_bench_${accountId.slice(0, 8)}`,
      metadata: { purpose: 'membership', tier: 'member', account_id: accountId },
      items: { data: [{ current_period_end: periodEnd, price: { id: 'price_bench_member' } }] },
    },
    created,
  );
}

/** checkout.session.completed of a membership checkout: links the Stripe customer and starts the tier. */
export function membershipCheckoutCompleted(accountId: string): string {
  return eventBody('checkout.session.completed', {
    id: `cs_bench_member_${++sequence}`,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: accountId,
    customer: `cus_bench_${accountId.slice(0, 8)}`,
    subscription: `sub_bench_member_${accountId.slice(0, 8)}`,
    metadata: { purpose: 'membership', tier: 'member', account_id: accountId },
  });
}
