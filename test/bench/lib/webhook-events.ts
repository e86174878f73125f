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
    {
      id: subscriptionId,
      object: 'subscription',
      status: 'active',
      customer: 'cus_bench_sponsor',
      metadata: { purpose: 'sponsorship' },
      items: { data: [] },
    },
    created,
  );
}

/**
 * A membership bought through POST /api/v1/membership/checkout (so the session is ours) and marked paid at the
 * stand-in: the completed session Stripe would send, and the subscription it started.
 */
export async function paidMembershipSession(
  base: string,
  key: string,
  stripe: StripeStandIn,
): Promise<{ session: Record<string, unknown>; subscriptionId: string; customer: string }> {
  const res = await fetch(`${base}/api/v1/membership/checkout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tier: 'member' }),
  });
  if (res.status !== 200) throw new Error(`membership checkout: ${res.status} ${await res.text()}`);
  const { checkout_url: url } = (await res.json()) as { checkout_url: string };
  const created = [...stripe.sessions.values()].find((s) => s.url === url);
  if (!created) throw new Error('no membership session at the stand-in');
  const session = stripe.completeSession(String(created.id));
  return { session, subscriptionId: String(session.subscription), customer: String(session.customer) };
}

/** checkout.session.completed of that membership checkout (a fresh event id each time). */
export const membershipCheckoutCompleted = (session: Record<string, unknown>): string =>
  eventBody('checkout.session.completed', session);

/** customer.subscription.updated of our membership checkout's subscription (known by its id once completed). */
export function membershipUpdated(subscriptionId: string, customer: string, created: number): string {
  const periodEnd = created + 30 * 86_400;
  return eventBody(
    'customer.subscription.updated',
    {
      id: subscriptionId,
      object: 'subscription',
      status: 'active',
      customer,
      metadata: {},
      items: { data: [{ current_period_end: periodEnd, price: { id: 'price_member' } }] },
    },
    created,
  );
}
