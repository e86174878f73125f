// Subscription webhook scenarios (sponsorships and memberships) shared by the suites on every driver. The app
// must be in Stripe mode (stripeModeEnv()) so the Prices map events to tiers. Every subscription here was
// started by one of our sessions: a sponsored checkout or a membership checkout made through the API.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../../src/db/client';
import type { TestApp } from '../test-app';
import { readRecord } from './checkout-scenarios';
import {
  paidSession,
  sendEvent,
  siteRow,
  submitUnpaid,
  uniqueUrl,
  type WebhookScenarioContext,
} from './payments-fixture';
import { checkoutSessionFixture, fixtureId, refMetadata } from './stripe-fixtures';
import { invoice, iso, nowSeconds, rand, subscription } from './subscription-objects';

/** The subscription metadata reference our session recorded (what Stripe copies onto the subscription). */
export async function sessionRef(t: TestApp, sessionId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ ref: string | null }>(
    t.deps.db,
    sql`SELECT ref FROM checkout_sessions WHERE id = ${sessionId}`,
  );
  return row?.ref ?? undefined;
}

/** A sponsored site paid through a checkout completed at `created`; its subscription id and metadata. */
export async function sponsoredSite(t: TestApp, created: number) {
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key, { plan: 'sponsored' });
  const session = paidSession({ ...p, plan: 'sponsored' });
  expect((await sendEvent(t, 'checkout.session.completed', session, { created })).status).toBe(200);
  const metadata = refMetadata(await sessionRef(t, p.sessionId), { purpose: 'sponsorship', site_id: p.siteId });
  return { ...p, key: m.key, subscriptionId: String(session.subscription), metadata };
}

/** is_sponsor as the submitter's detail read shows it. */
const sponsor = async (t: TestApp, s: { key: string; siteId: string }) =>
  (await readRecord(t, s.key, s.siteId)).is_sponsor;

/** A membership checkout made through POST /api/v1/membership/checkout: our session, its ref and amount. */
export async function membershipCheckout(
  ctx: WebhookScenarioContext,
  key: string,
  tier: 'member' | 'memberFeature' = 'member',
) {
  const res = await ctx.t.request('/api/v1/membership/checkout', { method: 'POST', key, json: { tier } });
  expect(res.status).toBe(200);
  const call = ctx.payments.calls.filter((c) => c.method === 'createMembershipCheckout').at(-1);
  const sessionId = String(call?.result);
  return { sessionId, ref: await sessionRef(ctx.t, sessionId), amount: tier === 'memberFeature' ? 1990 : 990 };
}

/** The completed membership session Stripe sends for `checkout` (overrides make it differ from what we created). */
export const membershipSession = (
  checkout: { sessionId: string; amount: number },
  accountId: string,
  overrides: Parameters<typeof checkoutSessionFixture>[0] = {},
) =>
  checkoutSessionFixture({
    id: checkout.sessionId,
    mode: 'subscription',
    amount_subtotal: checkout.amount,
    amount_total: checkout.amount,
    client_reference_id: accountId,
    customer: `cus_${rand()}`,
    subscription: fixtureId('sub'),
    invoice: fixtureId('in'),
    payment_intent: null,
    metadata: { purpose: 'membership', account_id: accountId },
    ...overrides,
  });

interface AccountRow {
  tier: string;
  membership_status: string;
  membership_period_end: string | null;
  membership_source: string | null;
  stripe_customer_id: string | null;
}

/** The membership columns of one account, period end as whole-second ISO text. */
export const accountRow = async (t: TestApp, id: string) =>
  (
    await queryRows<AccountRow>(
      t.deps.db,
      sql`SELECT tier, membership_status, to_char(membership_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS membership_period_end,
          membership_source, stripe_customer_id FROM accounts WHERE id = ${id}`,
    )
  )[0]!;

/** The status a submit of a fresh tool answers for `key` (201 member, 402 not). */
export const submitStatus = async (t: TestApp, key: string) =>
  (
    await t.request('/api/v1/submit-site', {
      method: 'POST',
      key,
      json: { name: `Member Tool ${rand()}`, url: uniqueUrl() },
    })
  ).status;

/** Sponsorship: past_due keeps the slot (paid period running), invoice.paid renews it, deleted clears it. */
export async function sponsorshipLifecycle({ t }: WebhookScenarioContext): Promise<void> {
  const t0 = nowSeconds() - 1000;
  const s = await sponsoredSite(t, t0);
  const paidUntil = nowSeconds() + 5 * 86400;
  const sub = (status: 'active' | 'past_due' | 'canceled', periodEnd = paidUntil) =>
    subscription(s.subscriptionId, { status, price: 'price_sponsored', periodEnd, metadata: s.metadata });
  expect(await siteRow(t, s.siteId)).toMatchObject({
    status: 'queued',
    is_sponsor: true,
    stripe_subscription_id: s.subscriptionId,
  });
  expect(await sponsor(t, s)).toBe(true);
  await sendEvent(t, 'customer.subscription.updated', sub('active'), { created: t0 + 5 });
  // The renewal failed: Stripe already shows the next (unpaid) period; the slot lasts until the paid one ends.
  await sendEvent(t, 'customer.subscription.updated', sub('past_due', paidUntil + 30 * 86400), { created: t0 + 10 });
  expect(await sponsor(t, s)).toBe(true);
  await sendEvent(
    t,
    'invoice.paid',
    invoice(s.subscriptionId, { price: 'price_sponsored', periodEnd: paidUntil + 30 * 86400 }),
    { created: t0 + 20 },
  );
  expect(await sponsor(t, s)).toBe(true);
  await sendEvent(t, 'customer.subscription.updated', sub('active', paidUntil + 30 * 86400), { created: t0 + 30 });
  expect(await sponsor(t, s)).toBe(true);
  await sendEvent(t, 'customer.subscription.deleted', sub('canceled'), { created: t0 + 40 });
  expect(await sponsor(t, s)).toBe(false);
}

/**
 * past_due across the end of the period already paid for, next to a membership in the same state: before the
 * end both hold, after it both have ended; unpaid, canceled and incomplete_expired end a sponsorship at once.
 */
export async function pastDueSponsorshipEndsAtPeriodEnd(ctx: WebhookScenarioContext): Promise<void> {
  const { t } = ctx;
  const t0 = nowSeconds() - 1000;
  const cases = [
    { paidUntil: nowSeconds() + 3600, holds: true },
    { paidUntil: nowSeconds() - 60, holds: false },
  ];
  for (const c of cases) {
    const s = await sponsoredSite(t, t0);
    const sub = (status: 'active' | 'past_due', periodEnd: number) =>
      subscription(s.subscriptionId, { status, price: 'price_sponsored', periodEnd, metadata: s.metadata });
    await sendEvent(t, 'customer.subscription.updated', sub('active', c.paidUntil), { created: t0 + 10 });
    await sendEvent(
      t,
      'invoice.payment_failed',
      invoice(s.subscriptionId, { price: 'price_sponsored', periodEnd: c.paidUntil + 30 * 86400, status: 'open' }),
      { created: t0 + 20 },
    );
    await sendEvent(t, 'customer.subscription.updated', sub('past_due', c.paidUntil + 30 * 86400), {
      created: t0 + 21,
    });
    expect(await sponsor(t, s)).toBe(c.holds);

    // The same history for a membership: it lasts exactly as long.
    const m = await t.member('none');
    const checkout = await membershipCheckout(ctx, m.key);
    const subId = fixtureId('sub');
    const member = (status: 'active' | 'past_due', periodEnd: number) =>
      subscription(subId, { status, price: 'price_member', periodEnd, metadata: refMetadata(checkout.ref) });
    await sendEvent(t, 'customer.subscription.created', member('active', c.paidUntil), { created: t0 + 10 });
    await sendEvent(t, 'customer.subscription.updated', member('past_due', c.paidUntil + 30 * 86400), {
      created: t0 + 21,
    });
    expect(await submitStatus(t, m.key)).toBe(c.holds ? 201 : 402);
  }
  for (const status of ['unpaid', 'canceled', 'incomplete_expired'] as const) {
    const s = await sponsoredSite(t, t0);
    const sub = subscription(s.subscriptionId, {
      status,
      price: 'price_sponsored',
      periodEnd: nowSeconds() + 3600,
      metadata: s.metadata,
    });
    await sendEvent(t, 'customer.subscription.updated', sub, { created: t0 + 10 });
    expect(await sponsor(t, s)).toBe(false);
  }
}

/** Sponsorship out of order: deleted delivered before an older updated(active) and an older invoice.paid. */
export async function sponsorshipDeletedFirst({ t }: WebhookScenarioContext): Promise<void> {
  const t0 = nowSeconds() - 1000;
  const s = await sponsoredSite(t, t0);
  const sub = (status: 'active' | 'canceled') =>
    subscription(s.subscriptionId, { status, price: 'price_sponsored', metadata: s.metadata });
  await sendEvent(t, 'customer.subscription.deleted', sub('canceled'), { created: t0 + 50 });
  await sendEvent(t, 'customer.subscription.updated', sub('active'), { created: t0 + 40 });
  await sendEvent(t, 'invoice.paid', invoice(s.subscriptionId, { price: 'price_sponsored' }), { created: t0 + 45 });
  expect(await sponsor(t, s)).toBe(false);
}

/** Membership: a failed renewal keeps it until the paid period ends; deletion ends it; a late older update cannot revive it. */
export async function membershipRenewalAndDeletion(ctx: WebhookScenarioContext): Promise<void> {
  const { t } = ctx;
  const m = await t.member('none');
  const checkout = await membershipCheckout(ctx, m.key);
  const customer = `cus_${rand()}`;
  const subId = `sub_${rand()}`;
  const t0 = nowSeconds() - 900;
  const end = nowSeconds() + 3 * 86400;
  const metadata = refMetadata(checkout.ref);
  const sub = (status: 'active' | 'past_due' | 'canceled', periodEnd: number) =>
    subscription(subId, { status, price: 'price_member', customer, periodEnd, metadata });
  await sendEvent(t, 'customer.subscription.created', sub('active', end), { created: t0 });
  await sendEvent(
    t,
    'invoice.payment_failed',
    invoice(subId, { price: 'price_member', customer, periodEnd: end + 30 * 86400, status: 'open' }),
    { created: t0 + 10 },
  );
  // Stripe moves the subscription to the next (unpaid) period: that must not extend the membership.
  await sendEvent(t, 'customer.subscription.updated', sub('past_due', end + 30 * 86400), { created: t0 + 11 });
  expect(await accountRow(t, m.accountId)).toMatchObject({
    tier: 'member',
    membership_status: 'past_due',
    membership_period_end: iso(end),
  });
  expect(await submitStatus(t, m.key)).toBe(201);

  const renewed = end + 30 * 86400;
  await sendEvent(t, 'invoice.paid', invoice(subId, { price: 'price_member', customer, periodEnd: renewed }), {
    created: t0 + 20,
  });
  expect(await accountRow(t, m.accountId)).toMatchObject({
    membership_status: 'active',
    membership_period_end: iso(renewed),
  });

  await sendEvent(t, 'customer.subscription.deleted', sub('canceled', renewed), { created: t0 + 30 });
  expect(await accountRow(t, m.accountId)).toMatchObject({ tier: 'none', membership_status: 'canceled' });
  expect(await submitStatus(t, m.key)).toBe(402);
  // An older update delivered late cannot revive it.
  await sendEvent(t, 'customer.subscription.updated', sub('active', renewed), { created: t0 + 25 });
  expect((await accountRow(t, m.accountId)).tier).toBe('none');
}

/** Membership created → updated → deleted delivered in reverse order: each older event is ignored, the account ends cancelled. */
export async function membershipReverseOrder(ctx: WebhookScenarioContext): Promise<void> {
  const { t } = ctx;
  const m = await t.member('none');
  const checkout = await membershipCheckout(ctx, m.key);
  const customer = `cus_${rand()}`;
  const subId = `sub_${rand()}`;
  const metadata = refMetadata(checkout.ref, { purpose: 'membership', account_id: m.accountId });
  const t0 = nowSeconds() - 700;
  const end = nowSeconds() + 20 * 86400;
  const created = subscription(subId, { price: 'price_member', customer, periodEnd: end, metadata });
  const upgraded = subscription(subId, { price: 'price_member_feature', customer, periodEnd: end, metadata });
  const deleted = subscription(subId, {
    status: 'canceled',
    price: 'price_member_feature',
    customer,
    periodEnd: end,
    metadata,
  });

  // updated (t0+20) first: recognised by our session's reference, it takes the newer tier.
  expect((await sendEvent(t, 'customer.subscription.updated', upgraded, { created: t0 + 20 })).status).toBe(200);
  expect(await accountRow(t, m.accountId)).toMatchObject({
    tier: 'memberFeature',
    membership_status: 'active',
    stripe_customer_id: customer,
    membership_period_end: iso(end),
  });
  // created (t0) late: older, so it does not downgrade the tier.
  expect((await sendEvent(t, 'customer.subscription.created', created, { created: t0 })).status).toBe(200);
  expect((await accountRow(t, m.accountId)).tier).toBe('memberFeature');
  // deleted (t0+40): newest, ends it; then the older ones again (redelivered with new ids) change nothing.
  expect((await sendEvent(t, 'customer.subscription.deleted', deleted, { created: t0 + 40 })).status).toBe(200);
  expect(
    await sendEvent(t, 'customer.subscription.updated', upgraded, { created: t0 + 20 }).then((r) => r.status),
  ).toBe(200);
  expect(await sendEvent(t, 'customer.subscription.created', created, { created: t0 }).then((r) => r.status)).toBe(200);
  expect(await accountRow(t, m.accountId)).toMatchObject({ tier: 'none', membership_status: 'canceled' });
  expect(await submitStatus(t, m.key)).toBe(402);
}

/**
 * Membership checkouts follow the same rule as submission checkouts: our session starts the tier it was made
 * for; a stranger's session naming the account starts nothing; ours with another amount is cancelled and refunded.
 */
export async function membershipCheckoutsAreOursOnly(ctx: WebhookScenarioContext): Promise<void> {
  const { t, payments } = ctx;
  const money = () => payments.calls.filter((c) => c.method === 'refund' || c.method === 'cancelSubscriptionAndRefund');
  const calls = money().length;

  const stranger = await t.member('none');
  const foreign = membershipSession({ sessionId: fixtureId('cs_test'), amount: 990 }, stranger.accountId, {
    metadata: { purpose: 'membership', account_id: stranger.accountId, tier: 'memberFeature' },
  });
  expect((await sendEvent(t, 'checkout.session.completed', foreign)).status).toBe(200);
  expect(await accountRow(t, stranger.accountId)).toMatchObject({ tier: 'none', stripe_customer_id: null });
  expect(money()).toHaveLength(calls);

  const cheap = await t.member('none');
  const cheapCheckout = await membershipCheckout(ctx, cheap.key, 'memberFeature');
  const underpaid = membershipSession(cheapCheckout, cheap.accountId, { amount_subtotal: 1, amount_total: 1 });
  expect((await sendEvent(t, 'checkout.session.completed', underpaid)).status).toBe(200);
  expect(await accountRow(t, cheap.accountId)).toMatchObject({ tier: 'none', stripe_customer_id: null });
  expect(money().slice(calls)).toEqual([
    {
      method: 'cancelSubscriptionAndRefund',
      args: [
        underpaid.subscription,
        underpaid.invoice,
        expect.stringContaining('amount_total: 1 usd instead of 1990 usd'),
      ],
    },
  ]);

  const buyer = await t.member('none');
  const checkout = await membershipCheckout(ctx, buyer.key, 'memberFeature');
  // The event's metadata claims another tier and account: our record decides.
  const session = membershipSession(checkout, buyer.accountId, {
    metadata: { purpose: 'membership', account_id: stranger.accountId, tier: 'member' },
  });
  expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
  expect(await accountRow(t, buyer.accountId)).toMatchObject({
    tier: 'memberFeature',
    membership_status: 'active',
    stripe_customer_id: session.customer,
    membership_source: 'stripe',
  });
  expect((await accountRow(t, stranger.accountId)).tier).toBe('none');
  expect(money()).toHaveLength(calls + 1);
}

/** A sponsored payment whose URL was taken meanwhile: the subscription is cancelled and its first invoice refunded. */
export async function sponsoredConflictCancelsSubscription({ t, payments }: WebhookScenarioContext): Promise<void> {
  const url = uniqueUrl();
  const payer = await t.member('none');
  const p = await submitUnpaid(t, payer.key, { plan: 'sponsored', url });
  const other = await t.member('member');
  expect(
    (
      await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: other.key,
        json: { name: `First Come ${rand()}`, url },
      })
    ).status,
  ).toBe(201);
  const session = paidSession({ ...p, plan: 'sponsored' });
  expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
  expect(
    payments.calls.filter((c) => c.method === 'cancelSubscriptionAndRefund' && c.args[0] === session.subscription),
  ).toEqual([
    {
      method: 'cancelSubscriptionAndRefund',
      args: [session.subscription, session.invoice, expect.stringContaining('refunded')],
    },
  ]);
  expect(await siteRow(t, p.siteId)).toBeUndefined();
}
