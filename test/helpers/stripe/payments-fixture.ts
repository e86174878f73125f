// Helpers for payment tests: a recording payments adapter, signed event delivery, and pending records to pay.
import { sql } from 'drizzle-orm';
import { createLocalPayments } from '../../../src/adapters/payments/local';
import type { PaymentsAdapter } from '../../../src/adapters/payments/types';
import type { JobQueue, JobStep, JobMessage } from '../../../src/adapters/queue/types';
import { queryRows } from '../../../src/db/client';
import { buildStripeEvent, signStripeEvent } from '../standins/stripe-signature';
import { WEBHOOK_SECRET, uniqueName, uniqueUrl, type TestApp } from '../test-app';

export interface PaymentCall {
  method: 'createCheckout' | 'createMembershipCheckout' | 'expireCheckout' | 'refund' | 'cancelSubscriptionAndRefund';
  args: unknown[];
  /** The session id createCheckout answered with. */
  result?: string;
}

/** The local adapter, with every call recorded (refunds and expiries are what the tests assert). */
export function recordingPayments(): PaymentsAdapter & { calls: PaymentCall[] } {
  const local = createLocalPayments();
  const calls: PaymentCall[] = [];
  return {
    kind: 'local',
    calls,
    async createCheckout(request) {
      const session = await local.createCheckout(request);
      calls.push({ method: 'createCheckout', args: [request], result: session.sessionId });
      return session;
    },
    async createMembershipCheckout(request) {
      calls.push({ method: 'createMembershipCheckout', args: [request] });
      return { sessionId: `cs_test_membership_${calls.length}`, url: `https://checkout.stripe.test/m${calls.length}`, expiresAt: new Date(Date.now() + 86_400_000) };
    },
    async expireCheckout(...args) {
      calls.push({ method: 'expireCheckout', args });
    },
    async refund(...args) {
      calls.push({ method: 'refund', args });
    },
    async cancelSubscriptionAndRefund(...args) {
      calls.push({ method: 'cancelSubscriptionAndRefund', args });
    },
  };
}

/** A queue that only records what was enqueued (no pipeline runs in payment tests). */
export function recordingQueue(): JobQueue & { jobs: Array<{ step: JobStep; message: JobMessage }> } {
  const jobs: Array<{ step: JobStep; message: JobMessage }> = [];
  return {
    kind: 'local',
    jobs,
    async enqueue(step, message) {
      jobs.push({ step, message });
    },
  };
}

let eventCounter = 0;
export const eventId = () => `evt_test_${Date.now()}_${++eventCounter}`;

/** Signs `body` like Stripe and POSTs it to the webhook through the full app. */
export function postEvent(t: TestApp, body: string, signature = signStripeEvent(body, WEBHOOK_SECRET)): Promise<Response> {
  return t.request('/api/webhooks/stripe', {
    method: 'POST',
    body,
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
  });
}

/** Builds, signs and delivers one event; returns the response. */
export function sendEvent(
  t: TestApp,
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number } = {},
): Promise<Response> {
  return postEvent(t, buildStripeEvent(type, object, { id: options.id ?? eventId(), created: options.created }));
}

export { uniqueName, uniqueUrl };

export interface Pending {
  siteId: string;
  sessionId: string;
  name: string;
  url: string;
  plan: string;
}

/** Submits as a caller without membership: a 402 pending record and its current checkout session id. */
export async function submitUnpaid(
  t: TestApp,
  key: string,
  input: { name?: string; url?: string; plan?: string } = {},
): Promise<Pending> {
  const json = { name: input.name ?? uniqueName(), url: input.url ?? uniqueUrl(), ...(input.plan && { plan: input.plan }) };
  const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json });
  if (res.status !== 402) throw new Error(`expected 402, got ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { site_id: string; plan: string };
  return { siteId: body.site_id, sessionId: await currentSession(t, body.site_id), name: json.name, url: json.url, plan: body.plan };
}

export async function currentSession(t: TestApp, siteId: string): Promise<string> {
  const [row] = await queryRows<{ checkout_session_id: string }>(
    t.deps.db,
    sql`SELECT checkout_session_id FROM pending_submissions WHERE id = ${siteId}`,
  );
  if (!row) throw new Error(`no pending record ${siteId}`);
  return row.checkout_session_id;
}

/** A paid Checkout Session object as Stripe sends it in checkout.session.* events. */
export function paidSession(p: { siteId: string; sessionId: string; plan?: string }, extra: Record<string, unknown> = {}) {
  const subscription = p.plan === 'sponsored' || p.plan === 'pro';
  return {
    id: p.sessionId,
    object: 'checkout.session',
    mode: subscription ? 'subscription' : 'payment',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: p.siteId,
    payment_intent: subscription ? null : `pi_test_${crypto.randomUUID().slice(0, 12)}`,
    subscription: subscription ? `sub_test_${crypto.randomUUID().slice(0, 12)}` : null,
    invoice: subscription ? `in_test_${crypto.randomUUID().slice(0, 12)}` : null,
    customer: `cus_test_${crypto.randomUUID().slice(0, 12)}`,
    metadata: { site_id: p.siteId, ...(p.plan && { plan: p.plan }) },
    ...extra,
  };
}

/** Reads a site row (or undefined) straight from the database. */
export async function siteRow(t: TestApp, siteId: string) {
  const [row] = await queryRows<{
    id: string;
    status: string;
    via: string;
    plan: string;
    is_feature: boolean;
    is_sponsor: boolean;
    stripe_checkout_session_id: string | null;
    stripe_payment_intent_id: string | null;
    stripe_subscription_id: string | null;
  }>(t.deps.db, sql`SELECT * FROM sites WHERE id = ${siteId}`);
  return row;
}

export async function pendingRow(t: TestApp, siteId: string) {
  const [row] = await queryRows<{ id: string; state: string; state_note: string | null }>(
    t.deps.db,
    sql`SELECT id, state, state_note FROM pending_submissions WHERE id = ${siteId}`,
  );
  return row;
}

export async function historyCount(t: TestApp, siteId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM site_history WHERE site_id = ${siteId}`);
  return Number(row?.n ?? 0);
}
