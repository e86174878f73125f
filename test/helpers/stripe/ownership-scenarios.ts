// "Only our own sessions count" (docs/payments.md), as scenarios shared by the suites on PGlite and on PostgreSQL
// through the Neon HTTP stand-in. Every event is a complete Stripe object (stripe-fixtures.ts) signed with
// stripe-node's own test-header helper; the adapter's refund and cancel calls are counted in each case.
import { expect } from 'vitest';
import type { TestApp } from '../test-app';
import { readRecord } from './checkout-scenarios';
import {
  expiredSession,
  paidSession,
  pendingRow,
  sendEvent,
  siteRow,
  submitUnpaid,
  type WebhookScenarioContext,
} from './payments-fixture';
import { fixtureId } from './stripe-fixtures';
import { invoice, nowSeconds, subscription } from './subscription-objects';
import { submitStatus } from './subscription-scenarios';

const IGNORED = 'stripe event about an object this service did not create: ignored';

/** Refund and cancel calls the adapter received so far. */
export const moneyCalls = (ctx: WebhookScenarioContext) =>
  ctx.payments.calls.filter((c) => c.method === 'refund' || c.method === 'cancelSubscriptionAndRefund').length;

/** The warn lines that say an event about `objectId` was ignored as foreign. */
export const ignoredLines = (ctx: WebhookScenarioContext, objectId: string) =>
  ctx.log.lines.filter((l) => l.level === 'warn' && l.msg === IGNORED && String(l.fields.object).includes(objectId));

/** Everything a caller and the database can see of one submission. */
async function snapshot(t: TestApp, key: string, siteId: string) {
  return {
    read: await readRecord(t, key, siteId),
    pending: await pendingRow(t, siteId),
    site: await siteRow(t, siteId),
  };
}

/**
 * A Payment Link on the same Stripe account, bought with `?client_reference_id=<a pending site>` (one-time and
 * subscription, claiming the sponsored plan for 1 dollar): nothing changes, nothing is refunded or cancelled,
 * one warn line per event.
 */
export async function paymentLinkSessionNamingPendingSite(ctx: WebhookScenarioContext): Promise<void> {
  const { t } = ctx;
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key);
  const before = await snapshot(t, m.key, p.siteId);
  const calls = moneyCalls(ctx);
  const oneTime = paidSession(
    { ...p, sessionId: fixtureId('cs_test') },
    { payment_link: fixtureId('plink'), amount_total: 100, metadata: { plan: 'sponsored' } },
  );
  const recurring = paidSession(
    { ...p, sessionId: fixtureId('cs_test'), plan: 'sponsored' },
    { payment_link: fixtureId('plink'), amount_total: 100, metadata: { site_id: p.siteId, plan: 'sponsored' } },
  );
  for (const session of [oneTime, recurring]) {
    expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
    expect(ignoredLines(ctx, session.id)).toHaveLength(1);
  }
  expect(await snapshot(t, m.key, p.siteId)).toEqual(before);
  expect(before.read).toMatchObject({ status: 'pending_payment' });
  expect(moneyCalls(ctx)).toBe(calls);
}

/** A session of another product with no client_reference_id (completed, async, failed, expired): left alone. */
export async function foreignSessionWithoutReference(ctx: WebhookScenarioContext): Promise<void> {
  const calls = moneyCalls(ctx);
  const session = paidSession(
    { siteId: '', sessionId: fixtureId('cs_test') },
    { client_reference_id: null, metadata: {} },
  );
  for (const type of [
    'checkout.session.completed',
    'checkout.session.async_payment_succeeded',
    'checkout.session.async_payment_failed',
  ] as const) {
    expect((await sendEvent(ctx.t, type, session)).status).toBe(200);
  }
  expect((await sendEvent(ctx.t, 'checkout.session.completed', { ...session, payment_status: 'unpaid' })).status).toBe(
    200,
  );
  expect(
    (
      await sendEvent(
        ctx.t,
        'checkout.session.expired',
        expiredSession({ siteId: '', sessionId: session.id }, { client_reference_id: null }),
      )
    ).status,
  ).toBe(200);
  expect(ignoredLines(ctx, session.id)).toHaveLength(5);
  expect(moneyCalls(ctx)).toBe(calls);
}

/**
 * A subscription this service never created, on our own Prices and claiming one of our accounts and sites in its
 * metadata: created, updated, invoice.paid, invoice.payment_failed and deleted change nothing and cancel nothing.
 * The app must be in Stripe mode (stripeModeEnv) so the Prices would have meant something before.
 */
export async function foreignSubscriptionEvents(ctx: WebhookScenarioContext): Promise<void> {
  const { t } = ctx;
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key, { plan: 'sponsored' });
  const calls = moneyCalls(ctx);
  const before = await snapshot(t, m.key, p.siteId);
  const subId = fixtureId('sub');
  const metadata = {
    purpose: 'membership',
    account_id: m.accountId,
    tier: 'memberFeature',
    site_id: p.siteId,
    tooldir_ref: 'ref_guessed',
  };
  const end = nowSeconds() + 30 * 86400;
  const sub = (status: 'active' | 'canceled') =>
    subscription(subId, { status, price: 'price_member_feature', periodEnd: end, metadata });
  const t0 = nowSeconds() - 100;
  const warned = ctx.log.lines.length;
  const invoiceOf = (status: 'paid' | 'open') =>
    invoice(subId, { price: 'price_member_feature', periodEnd: end, subscriptionMetadata: metadata, status });
  expect((await sendEvent(t, 'customer.subscription.created', sub('active'), { created: t0 })).status).toBe(200);
  expect((await sendEvent(t, 'customer.subscription.updated', sub('active'), { created: t0 + 1 })).status).toBe(200);
  expect((await sendEvent(t, 'invoice.paid', invoiceOf('paid'), { created: t0 + 2 })).status).toBe(200);
  expect((await sendEvent(t, 'invoice.payment_failed', invoiceOf('open'), { created: t0 + 3 })).status).toBe(200);
  expect((await sendEvent(t, 'customer.subscription.deleted', sub('canceled'), { created: t0 + 4 })).status).toBe(200);
  const ignored = ctx.log.lines.slice(warned).filter((l) => l.level === 'warn');
  expect(ignored.map((l) => [l.msg, l.fields.type])).toEqual([
    [IGNORED, 'customer.subscription.created'],
    [IGNORED, 'customer.subscription.updated'],
    [IGNORED, 'invoice.paid'],
    [IGNORED, 'invoice.payment_failed'],
    [IGNORED, 'customer.subscription.deleted'],
  ]);
  expect(await snapshot(t, m.key, p.siteId)).toEqual(before);
  // The account did not become a member: a covered submit still asks for payment.
  expect(await submitStatus(t, m.key)).toBe(402);
  expect(moneyCalls(ctx)).toBe(calls);
}

/** Our own session, paid with another amount, currency or mode: refunded, and the caller reads why. */
async function mismatchIsRefunded(
  ctx: WebhookScenarioContext,
  plan: 'basic' | 'sponsored',
  change: Parameters<typeof paidSession>[1],
  expected: { field: string; cancel?: boolean },
): Promise<void> {
  const { t, payments } = ctx;
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key, { plan });
  const session = paidSession(p, change);
  const calls = payments.calls.length;
  const id = fixtureId('evt');
  expect((await sendEvent(t, 'checkout.session.completed', session, { id })).status).toBe(200);
  const money = payments.calls
    .slice(calls)
    .filter((c) => c.method === 'refund' || c.method === 'cancelSubscriptionAndRefund');
  expect(money).toEqual([
    expected.cancel
      ? {
          method: 'cancelSubscriptionAndRefund',
          args: [session.subscription, session.invoice, expect.stringContaining(expected.field)],
        }
      : { method: 'refund', args: [session.payment_intent, expect.stringContaining(expected.field)] },
  ]);
  expect(await siteRow(t, p.siteId)).toBeUndefined();
  expect(await pendingRow(t, p.siteId)).toMatchObject({ state: 'refunded' });
  expect(await readRecord(t, m.key, p.siteId)).toEqual({
    site_id: p.siteId,
    name: p.name,
    url: p.url,
    status: 'rejected',
    is_feature: false,
    is_sponsor: false,
    submitted_at: expect.any(String),
    rejection_reason: expect.stringMatching(new RegExp(`did not match.*${expected.field}.*refunded`)),
    history: [{ status: 'pending_payment', at: expect.any(String) }],
  });
  // Stripe's redelivery of the same event refunds nothing more.
  expect((await sendEvent(t, 'checkout.session.completed', session, { id })).status).toBe(200);
  expect(
    payments.calls.slice(calls).filter((c) => c.method === 'refund' || c.method === 'cancelSubscriptionAndRefund'),
  ).toHaveLength(1);
}

/** 1 cent for a basic listing. */
export const oneCentIsRefunded = (ctx: WebhookScenarioContext) =>
  mismatchIsRefunded(
    ctx,
    'basic',
    { amount_subtotal: 1, amount_total: 1 },
    { field: 'amount_total: 1 usd instead of 1590 usd' },
  );

/** The right number in the wrong currency. */
export const wrongCurrencyIsRefunded = (ctx: WebhookScenarioContext) =>
  mismatchIsRefunded(ctx, 'basic', { currency: 'eur' }, { field: 'currency: eur instead of usd' });

/** A subscription-mode session answering a one-time plan: the subscription is cancelled and refunded. */
export const subscriptionModeForOneTimePlanIsRefunded = (ctx: WebhookScenarioContext) =>
  mismatchIsRefunded(
    ctx,
    'basic',
    { mode: 'subscription', payment_intent: null, subscription: fixtureId('sub'), invoice: fixtureId('in') },
    { field: 'mode: subscription instead of payment', cancel: true },
  );

/** Metadata claiming another plan changes nothing: the site gets the plan our session was made for. */
export async function metadataClaimingAnotherPlan(ctx: WebhookScenarioContext): Promise<void> {
  const { t } = ctx;
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key, { plan: 'basic' });
  const calls = moneyCalls(ctx);
  const session = paidSession(p, {
    metadata: { site_id: p.siteId, plan: 'featured', purpose: 'membership', tier: 'memberFeature' },
  });
  expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
  expect(await siteRow(t, p.siteId)).toMatchObject({
    status: 'queued',
    plan: 'basic',
    is_feature: false,
    is_sponsor: false,
  });
  expect(await readRecord(t, m.key, p.siteId)).toMatchObject({
    status: 'queued',
    is_feature: false,
    is_sponsor: false,
  });
  expect(moneyCalls(ctx)).toBe(calls);
}

/**
 * checkout.session.expired: the detail read's expires_at becomes the moment the link stopped working (Stripe
 * expired it an hour after it was made, long before its 24 hours); after a re-submit the read shows the new
 * live link, and the replaced link's expiry changes nothing.
 */
export async function expiredLinkShowsWhenItStopped(ctx: WebhookScenarioContext): Promise<void> {
  const { t } = ctx;
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key);
  const opened = await readRecord(t, m.key, p.siteId);
  expect(Date.parse(String(opened.expires_at))).toBeGreaterThan(Date.now() + 23 * 3600_000);
  const stopped = nowSeconds() - 5;
  expect((await sendEvent(t, 'checkout.session.expired', expiredSession(p), { created: stopped })).status).toBe(200);
  expect(await readRecord(t, m.key, p.siteId)).toEqual({
    ...opened,
    expires_at: new Date(stopped * 1000).toISOString(),
  });

  const fresh = await submitUnpaid(t, m.key, { name: p.name, url: p.url });
  const replaced = await readRecord(t, m.key, p.siteId);
  expect(replaced).toMatchObject({ status: 'pending_payment', checkout_url: expect.stringContaining(fresh.sessionId) });
  expect(Date.parse(String(replaced.expires_at))).toBeGreaterThan(Date.now() + 23 * 3600_000);
  expect((await sendEvent(t, 'checkout.session.expired', expiredSession(p), { created: nowSeconds() })).status).toBe(
    200,
  );
  expect(await readRecord(t, m.key, p.siteId)).toEqual(replaced);
}
