// Subscription webhook scenarios (sponsorships and memberships) shared by the suites on every driver. The app
// must be in Stripe mode (stripeModeEnv()) so the Prices map events to plans and tiers.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../../src/db/client';
import type { TestApp } from '../test-app';
import type { WebhookScenarioContext } from './checkout-scenarios';
import { paidSession, sendEvent, siteRow, submitUnpaid, uniqueUrl } from './payments-fixture';
import { invoice, iso, nowSeconds, rand, subscription } from './subscription-objects';

/** A sponsored site paid through a checkout completed at `created`; its subscription id. */
export async function sponsoredSite(t: TestApp, created: number) {
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key, { plan: 'sponsored' });
  const session = paidSession({ ...p, plan: 'sponsored' });
  expect((await sendEvent(t, 'checkout.session.completed', session, { created })).status).toBe(200);
  return { ...p, key: m.key, subscriptionId: String(session.subscription) };
}

const sponsor = async (t: TestApp, siteId: string) => (await siteRow(t, siteId))?.is_sponsor;

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
  (await t.request('/api/v1/submit-site', { method: 'POST', key, json: { name: `Member Tool ${rand()}`, url: uniqueUrl() } })).status;

/** Sponsorship: updated(past_due) clears the slot, invoice.paid sets it again, deleted clears it. */
export async function sponsorshipLifecycle({ t }: WebhookScenarioContext): Promise<void> {
  const t0 = nowSeconds() - 1000;
  const s = await sponsoredSite(t, t0);
  expect(await siteRow(t, s.siteId)).toMatchObject({ status: 'queued', is_sponsor: true, stripe_subscription_id: s.subscriptionId });
  await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'past_due', price: 'price_sponsored' }), { created: t0 + 10 });
  expect(await sponsor(t, s.siteId)).toBe(false);
  await sendEvent(t, 'invoice.paid', invoice(s.subscriptionId, { price: 'price_sponsored' }), { created: t0 + 20 });
  expect(await sponsor(t, s.siteId)).toBe(true);
  await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored' }), { created: t0 + 30 });
  expect(await sponsor(t, s.siteId)).toBe(true);
  await sendEvent(t, 'customer.subscription.deleted', subscription(s.subscriptionId, { status: 'canceled', price: 'price_sponsored' }), { created: t0 + 40 });
  expect(await sponsor(t, s.siteId)).toBe(false);
}

/** Sponsorship out of order: deleted delivered before an older updated(active) and an older invoice.paid. */
export async function sponsorshipDeletedFirst({ t }: WebhookScenarioContext): Promise<void> {
  const t0 = nowSeconds() - 1000;
  const s = await sponsoredSite(t, t0);
  await sendEvent(t, 'customer.subscription.deleted', subscription(s.subscriptionId, { status: 'canceled', price: 'price_sponsored' }), { created: t0 + 50 });
  await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored' }), { created: t0 + 40 });
  await sendEvent(t, 'invoice.paid', invoice(s.subscriptionId, { price: 'price_sponsored' }), { created: t0 + 45 });
  expect(await sponsor(t, s.siteId)).toBe(false);
}

/** Membership: a failed renewal keeps it until the paid period ends; deletion ends it; a late older update cannot revive it. */
export async function membershipRenewalAndDeletion({ t }: WebhookScenarioContext): Promise<void> {
  const m = await t.member('none');
  const customer = `cus_${rand()}`;
  const subId = `sub_${rand()}`;
  const t0 = nowSeconds() - 900;
  const end = nowSeconds() + 3 * 86400;
  await sendEvent(t, 'customer.subscription.created', subscription(subId, { price: 'price_member', customer, periodEnd: end, metadata: { account_id: m.accountId } }), { created: t0 });
  await sendEvent(t, 'invoice.payment_failed', invoice(subId, { price: 'price_member', customer, periodEnd: end + 30 * 86400 }), { created: t0 + 10 });
  // Stripe moves the subscription to the next (unpaid) period: that must not extend the membership.
  await sendEvent(t, 'customer.subscription.updated', subscription(subId, { status: 'past_due', price: 'price_member', customer, periodEnd: end + 30 * 86400 }), { created: t0 + 11 });
  expect(await accountRow(t, m.accountId)).toMatchObject({ tier: 'member', membership_status: 'past_due', membership_period_end: iso(end) });
  expect(await submitStatus(t, m.key)).toBe(201);

  const renewed = end + 30 * 86400;
  await sendEvent(t, 'invoice.paid', invoice(subId, { price: 'price_member', customer, periodEnd: renewed }), { created: t0 + 20 });
  expect(await accountRow(t, m.accountId)).toMatchObject({ membership_status: 'active', membership_period_end: iso(renewed) });

  await sendEvent(t, 'customer.subscription.deleted', subscription(subId, { status: 'canceled', price: 'price_member', customer, periodEnd: renewed }), { created: t0 + 30 });
  expect(await accountRow(t, m.accountId)).toMatchObject({ tier: 'none', membership_status: 'canceled' });
  expect(await submitStatus(t, m.key)).toBe(402);
  // An older update delivered late cannot revive it.
  await sendEvent(t, 'customer.subscription.updated', subscription(subId, { status: 'active', price: 'price_member', customer, periodEnd: renewed }), { created: t0 + 25 });
  expect((await accountRow(t, m.accountId)).tier).toBe('none');
}

/** Membership created → updated → deleted delivered in reverse order: each older event is ignored, the account ends cancelled. */
export async function membershipReverseOrder({ t }: WebhookScenarioContext): Promise<void> {
  const m = await t.member('none');
  const customer = `cus_${rand()}`;
  const subId = `sub_${rand()}`;
  const metadata = { purpose: 'membership', account_id: m.accountId };
  const t0 = nowSeconds() - 700;
  const end = nowSeconds() + 20 * 86400;
  const created = subscription(subId, { price: 'price_member', customer, periodEnd: end, metadata });
  const upgraded = subscription(subId, { price: 'price_member_feature', customer, periodEnd: end, metadata });
  const deleted = subscription(subId, { status: 'canceled', price: 'price_member_feature', customer, periodEnd: end, metadata });

  // updated (t0+20) first: the account is found by the metadata and takes the newer tier.
  expect((await sendEvent(t, 'customer.subscription.updated', upgraded, { created: t0 + 20 })).status).toBe(200);
  expect(await accountRow(t, m.accountId)).toMatchObject({ tier: 'memberFeature', membership_status: 'active', stripe_customer_id: customer, membership_period_end: iso(end) });
  // created (t0) late: older, so it does not downgrade the tier.
  expect((await sendEvent(t, 'customer.subscription.created', created, { created: t0 })).status).toBe(200);
  expect((await accountRow(t, m.accountId)).tier).toBe('memberFeature');
  // deleted (t0+40): newest, ends it; then the older ones again (redelivered with new ids) change nothing.
  expect((await sendEvent(t, 'customer.subscription.deleted', deleted, { created: t0 + 40 })).status).toBe(200);
  expect(await sendEvent(t, 'customer.subscription.updated', upgraded, { created: t0 + 20 }).then((r) => r.status)).toBe(200);
  expect(await sendEvent(t, 'customer.subscription.created', created, { created: t0 }).then((r) => r.status)).toBe(200);
  expect(await accountRow(t, m.accountId)).toMatchObject({ tier: 'none', membership_status: 'canceled' });
  expect(await submitStatus(t, m.key)).toBe(402);
}

/** A sponsored payment whose URL was taken meanwhile: the subscription is cancelled and its first invoice refunded. */
export async function sponsoredConflictCancelsSubscription({ t, payments }: WebhookScenarioContext): Promise<void> {
  const url = uniqueUrl();
  const payer = await t.member('none');
  const p = await submitUnpaid(t, payer.key, { plan: 'sponsored', url });
  const other = await t.member('member');
  expect((await t.request('/api/v1/submit-site', { method: 'POST', key: other.key, json: { name: `First Come ${rand()}`, url } })).status).toBe(201);
  const session = paidSession({ ...p, plan: 'sponsored' });
  expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
  expect(payments.calls.filter((c) => c.method === 'cancelSubscriptionAndRefund' && c.args[0] === session.subscription)).toEqual([
    { method: 'cancelSubscriptionAndRefund', args: [session.subscription, session.invoice, expect.stringContaining('refunded')] },
  ]);
  expect(await siteRow(t, p.siteId)).toBeUndefined();
}
