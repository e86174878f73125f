import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { paidSession, recordingPayments, recordingQueue, sendEvent, siteRow, submitUnpaid, uniqueUrl } from '../../helpers/stripe/payments-fixture';

const PRICES = {
  STRIPE_PRICE_BASIC: 'price_basic',
  STRIPE_PRICE_FEATURED: 'price_featured',
  STRIPE_PRICE_SPONSORED: 'price_sponsored',
  STRIPE_PRICE_MEMBER: 'price_member',
  STRIPE_PRICE_MEMBER_FEATURE: 'price_member_feature',
};

let t: TestApp;
beforeAll(async () => {
  // Stripe mode (Prices configured), with the payments adapter replaced so nothing leaves the process.
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: 'sk_test_not_used', ...PRICES },
    overrides: { payments: recordingPayments(), queue: recordingQueue() },
  });
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);
const rand = () => crypto.randomUUID().slice(0, 12);

function subscription(id: string, o: { status?: string; price: string; customer?: string; periodEnd?: number; metadata?: Record<string, string> }) {
  return {
    id,
    object: 'subscription',
    status: o.status ?? 'active',
    customer: o.customer ?? `cus_${rand()}`,
    metadata: o.metadata ?? {},
    items: { object: 'list', data: [{ object: 'subscription_item', price: { id: o.price }, current_period_end: o.periodEnd ?? now() + 30 * 86400 }] },
  };
}

function invoice(subscriptionId: string, o: { price: string; customer?: string; periodEnd?: number }) {
  return {
    id: `in_${rand()}`,
    object: 'invoice',
    customer: o.customer ?? null,
    parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: {} } },
    lines: {
      object: 'list',
      data: [{ period: { start: now(), end: o.periodEnd ?? now() + 30 * 86400 }, pricing: { type: 'price_details', price_details: { price: o.price } } }],
    },
  };
}

describe('sponsored plan (subscription)', () => {
  async function sponsoredSite(created: number) {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key, { plan: 'sponsored' });
    const session = paidSession({ ...p, plan: 'sponsored' });
    expect((await sendEvent(t, 'checkout.session.completed', session, { created })).status).toBe(200);
    return { ...p, key: m.key, subscriptionId: String(session.subscription) };
  }
  const sponsor = async (siteId: string) => (await siteRow(t, siteId))?.is_sponsor;

  it('completion queues with is_sponsor and stores the subscription id', async () => {
    const s = await sponsoredSite(now() - 100);
    expect(await siteRow(t, s.siteId)).toMatchObject({ status: 'queued', is_sponsor: true, stripe_subscription_id: s.subscriptionId });
    const detail = await t.request(`/api/v1/sites/${s.siteId}`, { key: s.key });
    expect(await detail.json()).toMatchObject({ status: 'queued', is_sponsor: true, is_feature: false });
  });

  it('updated (past_due) clears it, invoice.paid sets it again, deleted clears it', async () => {
    const t0 = now() - 1000;
    const s = await sponsoredSite(t0);
    await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'past_due', price: 'price_sponsored' }), { created: t0 + 10 });
    expect(await sponsor(s.siteId)).toBe(false);
    await sendEvent(t, 'invoice.paid', invoice(s.subscriptionId, { price: 'price_sponsored' }), { created: t0 + 20 });
    expect(await sponsor(s.siteId)).toBe(true);
    await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored' }), { created: t0 + 30 });
    expect(await sponsor(s.siteId)).toBe(true);
    await sendEvent(t, 'customer.subscription.deleted', subscription(s.subscriptionId, { status: 'canceled', price: 'price_sponsored' }), { created: t0 + 40 });
    expect(await sponsor(s.siteId)).toBe(false);
  });

  it('out of order: deleted delivered before an older updated(active) and an older invoice.paid ends cleared', async () => {
    const t0 = now() - 1000;
    const s = await sponsoredSite(t0);
    await sendEvent(t, 'customer.subscription.deleted', subscription(s.subscriptionId, { status: 'canceled', price: 'price_sponsored' }), { created: t0 + 50 });
    await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored' }), { created: t0 + 40 });
    await sendEvent(t, 'invoice.paid', invoice(s.subscriptionId, { price: 'price_sponsored' }), { created: t0 + 45 });
    expect(await sponsor(s.siteId)).toBe(false);
  });

  it('out of order: an older past_due after a newer active keeps the sponsor slot', async () => {
    const t0 = now() - 1000;
    const s = await sponsoredSite(t0);
    await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored' }), { created: t0 + 30 });
    await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'past_due', price: 'price_sponsored' }), { created: t0 + 20 });
    expect(await sponsor(s.siteId)).toBe(true);
  });

  it('same-second tie between active and deleted ends cleared whatever the arrival order', async () => {
    const t0 = now() - 1000;
    const s = await sponsoredSite(t0);
    await sendEvent(t, 'customer.subscription.deleted', subscription(s.subscriptionId, { status: 'canceled', price: 'price_sponsored' }), { created: t0 + 60 });
    await sendEvent(t, 'customer.subscription.updated', subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored' }), { created: t0 + 60 });
    expect(await sponsor(s.siteId)).toBe(false);
  });

  it('deleted delivered before the checkout completion: the site is queued without the sponsor slot', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key, { plan: 'sponsored' });
    const session = paidSession({ ...p, plan: 'sponsored' });
    const t0 = now() - 1000;
    const sub = subscription(String(session.subscription), { status: 'canceled', price: 'price_sponsored', metadata: { purpose: 'sponsorship', site_id: p.siteId } });
    expect((await sendEvent(t, 'customer.subscription.deleted', sub, { created: t0 + 100 })).status).toBe(200);
    expect((await sendEvent(t, 'checkout.session.completed', session, { created: t0 })).status).toBe(200);
    expect(await siteRow(t, p.siteId)).toMatchObject({ status: 'queued', is_sponsor: false, stripe_subscription_id: session.subscription });
  });

  it('a sponsored conflict cancels the subscription and refunds its first invoice', async () => {
    const payments = recordingPayments();
    const t2 = await createTestApp({ env: { STRIPE_SECRET_KEY: 'sk_test_not_used', ...PRICES }, overrides: { payments, queue: recordingQueue() } });
    try {
      const url = uniqueUrl();
      const payer = await t2.member('none');
      const p = await submitUnpaid(t2, payer.key, { plan: 'sponsored', url });
      const other = await t2.member('member');
      expect((await t2.request('/api/v1/submit-site', { method: 'POST', key: other.key, json: { name: 'First Come', url } })).status).toBe(201);
      const session = paidSession({ ...p, plan: 'sponsored' });
      expect((await sendEvent(t2, 'checkout.session.completed', session)).status).toBe(200);
      expect(payments.calls.filter((c) => c.method === 'cancelSubscriptionAndRefund')).toEqual([
        { method: 'cancelSubscriptionAndRefund', args: [session.subscription, session.invoice, expect.stringContaining('refunded')] },
      ]);
    } finally {
      await t2.close();
    }
  });
});

interface AccountRow {
  tier: string;
  membership_status: string;
  membership_period_end: string | null;
  membership_source: string | null;
  stripe_customer_id: string | null;
}
const account = async (id: string) =>
  (
    await queryRows<AccountRow>(
      t.deps.db,
      sql`SELECT tier, membership_status, to_char(membership_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS membership_period_end,
          membership_source, stripe_customer_id FROM accounts WHERE id = ${id}`,
    )
  )[0]!;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const submitStatus = async (key: string) =>
  (await t.request('/api/v1/submit-site', { method: 'POST', key, json: { name: `Member Tool ${rand()}`, url: uniqueUrl() } })).status;

describe('memberships bought through Stripe', () => {
  it('checkout (client_reference_id = account id) links the customer; subscription events set tier, status, period end', async () => {
    const m = await t.member('none');
    const customer = `cus_${rand()}`;
    const subId = `sub_${rand()}`;
    const t0 = now() - 500;
    const session = {
      id: `cs_${rand()}`, object: 'checkout.session', mode: 'subscription', payment_status: 'paid', status: 'complete',
      client_reference_id: m.accountId, customer, subscription: subId, payment_intent: null,
      metadata: { purpose: 'membership', tier: 'member' },
    };
    expect((await sendEvent(t, 'checkout.session.completed', session, { created: t0 })).status).toBe(200);
    expect(await account(m.accountId)).toMatchObject({ tier: 'member', membership_status: 'active', stripe_customer_id: customer, membership_source: 'stripe' });

    const end = now() + 20 * 86400;
    await sendEvent(t, 'customer.subscription.updated', subscription(subId, { price: 'price_member_feature', customer, periodEnd: end }), { created: t0 + 10 });
    expect(await account(m.accountId)).toMatchObject({ tier: 'memberFeature', membership_status: 'active', membership_period_end: iso(end) });
    expect(await submitStatus(m.key)).toBe(201);
  });

  it('subscription.created before the checkout completes finds the account by metadata account_id', async () => {
    const m = await t.member('none');
    const customer = `cus_${rand()}`;
    const end = now() + 10 * 86400;
    const sub = subscription(`sub_${rand()}`, { price: 'price_member', customer, periodEnd: end, metadata: { purpose: 'membership', account_id: m.accountId } });
    expect((await sendEvent(t, 'customer.subscription.created', sub, { created: now() - 50 })).status).toBe(200);
    expect(await account(m.accountId)).toMatchObject({ tier: 'member', membership_status: 'active', stripe_customer_id: customer, membership_period_end: iso(end) });
  });

  it('a failed renewal keeps the membership until the paid period ends; deletion ends it', async () => {
    const m = await t.member('none');
    const customer = `cus_${rand()}`;
    const subId = `sub_${rand()}`;
    const t0 = now() - 900;
    const end = now() + 3 * 86400;
    await sendEvent(t, 'customer.subscription.created', subscription(subId, { price: 'price_member', customer, periodEnd: end, metadata: { account_id: m.accountId } }), { created: t0 });
    await sendEvent(t, 'invoice.payment_failed', invoice(subId, { price: 'price_member', customer, periodEnd: end + 30 * 86400 }), { created: t0 + 10 });
    // Stripe moves the subscription to the next (unpaid) period: that must not extend the membership.
    await sendEvent(t, 'customer.subscription.updated', subscription(subId, { status: 'past_due', price: 'price_member', customer, periodEnd: end + 30 * 86400 }), { created: t0 + 11 });
    expect(await account(m.accountId)).toMatchObject({ tier: 'member', membership_status: 'past_due', membership_period_end: iso(end) });
    expect(await submitStatus(m.key)).toBe(201);

    const renewed = end + 30 * 86400;
    await sendEvent(t, 'invoice.paid', invoice(subId, { price: 'price_member', customer, periodEnd: renewed }), { created: t0 + 20 });
    expect(await account(m.accountId)).toMatchObject({ membership_status: 'active', membership_period_end: iso(renewed) });

    await sendEvent(t, 'customer.subscription.deleted', subscription(subId, { status: 'canceled', price: 'price_member', customer, periodEnd: renewed }), { created: t0 + 30 });
    expect(await account(m.accountId)).toMatchObject({ tier: 'none', membership_status: 'canceled' });
    expect(await submitStatus(m.key)).toBe(402);
    // An older update delivered late cannot revive it.
    await sendEvent(t, 'customer.subscription.updated', subscription(subId, { status: 'active', price: 'price_member', customer, periodEnd: renewed }), { created: t0 + 25 });
    expect((await account(m.accountId)).tier).toBe('none');
  });

  it('operator vs Stripe: the newer change wins, in both directions', async () => {
    const m = await t.member('none');
    const customer = `cus_${rand()}`;
    const subId = `sub_${rand()}`;
    await sendEvent(t, 'customer.subscription.created', subscription(subId, { price: 'price_member', customer, metadata: { account_id: m.accountId } }), { created: now() - 600 });
    expect((await account(m.accountId)).tier).toBe('member');

    const put = await t.request(`/api/v1/admin/accounts/${m.accountId}/membership`, { method: 'PUT', key: ADMIN_TOKEN, json: { tier: 'memberFeature' } });
    expect(put.status).toBe(200);
    // A Stripe event created before the operator's change (delivered late) does not overwrite it.
    await sendEvent(t, 'customer.subscription.updated', subscription(subId, { price: 'price_member', customer }), { created: now() - 300 });
    expect(await account(m.accountId)).toMatchObject({ tier: 'memberFeature', membership_source: 'operator' });
    // A Stripe event created after it does.
    await sendEvent(t, 'customer.subscription.deleted', subscription(subId, { status: 'canceled', price: 'price_member', customer }), { created: now() + 2 });
    expect(await account(m.accountId)).toMatchObject({ tier: 'none', membership_source: 'stripe' });
  });

  it('a subscription for neither a membership nor a known site is acknowledged and ignored', async () => {
    const res = await sendEvent(t, 'customer.subscription.updated', subscription(`sub_${rand()}`, { price: 'price_other' }));
    expect(res.status).toBe(200);
  });
});

describe('POST /api/v1/membership/checkout', () => {
  it('returns a checkout link for the caller\'s account and tier', async () => {
    const payments = recordingPayments();
    const t2 = await createTestApp({ env: { STRIPE_SECRET_KEY: 'sk_test_not_used', ...PRICES }, overrides: { payments, queue: recordingQueue() } });
    try {
      const m = await t2.member('none');
      const res = await t2.request('/api/v1/membership/checkout', { method: 'POST', key: m.key, json: { tier: 'memberFeature' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ checkout_url: expect.stringMatching(/^https:\/\//), expires_at: expect.any(String), tier: 'memberFeature' });
      expect(payments.calls).toContainEqual({
        method: 'createMembershipCheckout',
        args: [{ accountId: m.accountId, tier: 'memberFeature', email: m.email, customerId: null, origin: 'http://tooldir.test' }],
      });
      expect((await t2.request('/api/v1/membership/checkout', { method: 'POST', key: m.key, json: { tier: 'gold' } })).status).toBe(400);
      expect((await t2.request('/api/v1/membership/checkout', { method: 'POST', json: { tier: 'member' } })).status).toBe(401);
    } finally {
      await t2.close();
    }
  });

  it('is described in the OpenAPI document', async () => {
    const res = await t.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(doc.paths['/api/v1/membership/checkout']?.post?.operationId).toBe('createMembershipCheckout');
  });

  it('is plan_unavailable with local payments', async () => {
    const t2 = await createTestApp({ overrides: { queue: recordingQueue() } });
    try {
      const m = await t2.member('none');
      const res = await t2.request('/api/v1/membership/checkout', { method: 'POST', key: m.key, json: { tier: 'member' } });
      expect(res.status).toBe(500);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('plan_unavailable');
    } finally {
      await t2.close();
    }
  });
});
