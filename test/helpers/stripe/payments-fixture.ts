// Helpers for payment tests: a recording payments adapter, signed event delivery, and pending records to pay.
import { sql } from 'drizzle-orm';
import { createLocalPayments } from '../../../src/adapters/payments/local';
import type { PaymentsAdapter } from '../../../src/adapters/payments/types';
import type { JobQueue, JobStep, JobMessage } from '../../../src/adapters/queue/types';
import type { Logger } from '../../../src/log';
import { queryRows } from '../../../src/db/client';
import type Stripe from 'stripe';
import type { CheckoutSession } from '../../../src/adapters/payments/types';
import { planKind, planPrices, type PlanName } from '../../../src/catalog/plans';
import { checkoutSessionFixture, eventFixture, fixtureId, signFixture, type HandledEventType } from './stripe-fixtures';
import type { Env } from '../../../src/config';
import type { OpenedDb } from '../../../src/db/node-clients';
import { WEBHOOK_SECRET, createTestApp, uniqueName, uniqueUrl, type TestApp } from '../test-app';

export interface PaymentCall {
  method:
    | 'createCheckout'
    | 'createMembershipCheckout'
    | 'expireCheckout'
    | 'refund'
    | 'cancelSubscriptionAndRefund'
    | 'cancelReplacedSubscription'
    | 'createBillingPortal';
  args: unknown[];
  /** The session id createCheckout answered with. */
  result?: string;
}

/**
 * The local adapter, with every call recorded (refunds and expiries are what the tests assert).
 * `promotionCodes`: its sessions are made as if with allow_promotion_codes (a 100 % discount is then accepted).
 */
export function recordingPayments(
  options: { promotionCodes?: boolean } = {},
): PaymentsAdapter & { calls: PaymentCall[] } {
  const local = createLocalPayments(planPrices);
  const calls: PaymentCall[] = [];
  return {
    kind: 'local',
    hostedOrigins: ['https://checkout.stripe.test', 'https://billing.stripe.test'],
    calls,
    async createCheckout(request) {
      const session = { ...(await local.createCheckout(request)), promotionCodes: options.promotionCodes ?? false };
      calls.push({ method: 'createCheckout', args: [request], result: session.sessionId });
      return session;
    },
    async createMembershipCheckout(request) {
      // What Stripe answers for a subscription-mode session on the tier's Price (amounts are ours).
      const session: CheckoutSession = {
        sessionId: fixtureId('cs_test'),
        url: `https://checkout.stripe.test/c/pay/m${calls.length}`,
        expiresAt: new Date(Date.now() + 86_400_000),
        mode: 'subscription',
        amountTotal: request.tier === 'memberFeature' ? 1990 : 990,
        currency: 'usd',
        promotionCodes: false,
        ref: `ref_${crypto.randomUUID().replaceAll('-', '')}`,
      };
      calls.push({ method: 'createMembershipCheckout', args: [request], result: session.sessionId });
      return session;
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
    async cancelReplacedSubscription(...args) {
      calls.push({ method: 'cancelReplacedSubscription', args });
    },
    async createBillingPortal(...args) {
      calls.push({ method: 'createBillingPortal', args });
      return { url: `https://billing.stripe.test/p/session/${calls.length}` };
    },
  };
}

/** A logger that keeps every line (the "one warn line" of an ignored foreign object is asserted). */
export function recordingLog(): Logger & {
  lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }>;
} {
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [];
  const at =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      void lines.push({ level, msg, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
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

/** The app under test and the recording adapters it was built with (the shared scenarios take one). */
export interface WebhookScenarioContext {
  t: TestApp;
  payments: ReturnType<typeof recordingPayments>;
  queue: ReturnType<typeof recordingQueue>;
  log: ReturnType<typeof recordingLog>;
}

/** A test app over `db` (a fresh PGlite by default) with recording payments, queue and log. */
export async function createWebhookContext(
  options: { env?: Env; db?: OpenedDb; promotionCodes?: boolean } = {},
): Promise<WebhookScenarioContext> {
  const payments = recordingPayments({ promotionCodes: options.promotionCodes });
  const queue = recordingQueue();
  const log = recordingLog();
  const t = await createTestApp({ env: options.env, db: options.db, overrides: { payments, queue, log } });
  return { t, payments, queue, log };
}

let eventCounter = 0;
export const eventId = () => `evt_test_${Date.now()}_${++eventCounter}`;

/** Signs `body` with stripe-node's own test-header helper and POSTs it to the webhook through the full app. */
export function postEvent(t: TestApp, body: string, signature = signFixture(body, WEBHOOK_SECRET)): Promise<Response> {
  return t.request('/api/webhooks/stripe', {
    method: 'POST',
    body,
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
  });
}

/** Builds (a complete event around a complete object), signs and delivers one event; returns the response. */
export function sendEvent<T extends HandledEventType>(
  t: TestApp,
  type: T,
  object: Parameters<typeof eventFixture<T>>[1],
  options: { id?: string; created?: number } = {},
): Promise<Response> {
  return postEvent(t, eventFixture(type, object, { id: options.id ?? eventId(), created: options.created }));
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
  const json = {
    name: input.name ?? uniqueName(),
    url: input.url ?? uniqueUrl(),
    ...(input.plan && { plan: input.plan }),
  };
  const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json });
  if (res.status !== 402) throw new Error(`expected 402, got ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { site_id: string; plan: string; url: string };
  // `url` as the service stored it: the parser's reading of what was sent (a bare host gets its `/`).
  return {
    siteId: body.site_id,
    sessionId: await currentSession(t, body.site_id),
    name: json.name,
    url: body.url,
    plan: body.plan,
  };
}

export async function currentSession(t: TestApp, siteId: string): Promise<string> {
  const [row] = await queryRows<{ checkout_session_id: string }>(
    t.deps.db,
    sql`SELECT checkout_session_id FROM pending_submissions WHERE id = ${siteId}`,
  );
  if (!row) throw new Error(`no pending record ${siteId}`);
  return row.checkout_session_id;
}

/**
 * The completed, paid Checkout Session Stripe sends for a pending record's session: exactly what our session
 * charges (the plan's price, in its mode), with the record's id as client_reference_id. Overrides make it differ.
 */
export function paidSession(
  p: { siteId: string; sessionId: string; plan?: string },
  overrides: Partial<Stripe.Checkout.Session> = {},
) {
  const price = planPrices[planKind((p.plan ?? 'basic') as PlanName)];
  const subscription = price.recurring;
  return checkoutSessionFixture({
    id: p.sessionId,
    mode: subscription ? 'subscription' : 'payment',
    amount_subtotal: price.amountCents,
    amount_total: price.amountCents,
    currency: price.currency,
    client_reference_id: p.siteId,
    payment_intent: subscription ? null : fixtureId('pi'),
    subscription: subscription ? fixtureId('sub') : null,
    invoice: subscription ? fixtureId('in') : null,
    metadata: { site_id: p.siteId, ...(p.plan && { plan: p.plan }) },
    ...overrides,
  });
}

/** The checkout.session.expired object of a pending record's session (nobody paid; Stripe closed it). */
export function expiredSession(
  p: { siteId: string; sessionId: string; plan?: string },
  overrides: Partial<Stripe.Checkout.Session> = {},
) {
  return paidSession(p, {
    status: 'expired',
    payment_status: 'unpaid',
    payment_intent: null,
    subscription: null,
    invoice: null,
    customer: null,
    customer_details: null,
    ...overrides,
  });
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
  const [row] = await queryRows<{ n: number }>(
    t.deps.db,
    sql`SELECT count(*)::int AS n FROM site_history WHERE site_id = ${siteId}`,
  );
  return Number(row?.n ?? 0);
}
