import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { membershipPrices } from '../../../src/catalog/plans';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { invoice, iso, nowSeconds, rand, stripeModeEnv, subscription } from '../../helpers/stripe/subscription-objects';
import {
  accountRow,
  membershipCheckout,
  membershipCheckoutsAreOursOnly,
  membershipRenewalAndDeletion,
  membershipSession,
  pastDueSponsorshipEndsAtPeriodEnd,
  membershipReverseOrder,
  sponsoredConflictCancelsSubscription,
  sponsoredSite,
  sponsorshipDeletedFirst,
  sponsorshipLifecycle,
  sessionRef,
  submitStatus as submitStatusOf,
} from '../../helpers/stripe/subscription-scenarios';
import {
  createWebhookContext,
  paidSession,
  recordingPayments,
  recordingQueue,
  sendEvent,
  siteRow,
  submitUnpaid,
  type WebhookScenarioContext,
} from '../../helpers/stripe/payments-fixture';
import { readRecord } from '../../helpers/stripe/checkout-scenarios';
import { refMetadata } from '../../helpers/stripe/stripe-fixtures';

let context: WebhookScenarioContext;
let t: TestApp;
beforeAll(async () => {
  // Stripe mode (Prices configured), with the payments adapter replaced so nothing leaves the process.
  context = await createWebhookContext({ env: stripeModeEnv() });
  t = context.t;
});
afterAll(() => t.close());

const now = nowSeconds;
const ctx = () => context;

describe('sponsored plan (subscription)', () => {
  const sponsor = async (s: { key: string; siteId: string }) => (await readRecord(t, s.key, s.siteId)).is_sponsor;

  it('completion queues with is_sponsor and stores the subscription id', async () => {
    const s = await sponsoredSite(t, now() - 100);
    expect(await siteRow(t, s.siteId)).toMatchObject({
      status: 'queued',
      is_sponsor: true,
      stripe_subscription_id: s.subscriptionId,
    });
    const detail = await t.request(`/api/v1/sites/${s.siteId}`, { key: s.key });
    expect(await detail.json()).toMatchObject({ status: 'queued', is_sponsor: true, is_feature: false });
  });

  it('past_due keeps it while the paid period runs, invoice.paid renews it, deleted clears it', () =>
    sponsorshipLifecycle(ctx()));

  it('past_due ends it exactly when the paid period ends, like a membership; unpaid, canceled, incomplete_expired end it at once', () =>
    pastDueSponsorshipEndsAtPeriodEnd(ctx()));

  it('out of order: deleted delivered before an older updated(active) and an older invoice.paid ends cleared', () =>
    sponsorshipDeletedFirst(ctx()));

  it('out of order: an older unpaid after a newer active keeps the sponsor slot', async () => {
    const t0 = now() - 1000;
    const s = await sponsoredSite(t, t0);
    await sendEvent(
      t,
      'customer.subscription.updated',
      subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored', metadata: s.metadata }),
      { created: t0 + 30 },
    );
    await sendEvent(
      t,
      'customer.subscription.updated',
      subscription(s.subscriptionId, { status: 'unpaid', price: 'price_sponsored', metadata: s.metadata }),
      { created: t0 + 20 },
    );
    expect(await sponsor(s)).toBe(true);
  });

  it('same-second tie between active and deleted ends cleared whatever the arrival order', async () => {
    const t0 = now() - 1000;
    const s = await sponsoredSite(t, t0);
    await sendEvent(
      t,
      'customer.subscription.deleted',
      subscription(s.subscriptionId, { status: 'canceled', price: 'price_sponsored', metadata: s.metadata }),
      { created: t0 + 60 },
    );
    await sendEvent(
      t,
      'customer.subscription.updated',
      subscription(s.subscriptionId, { status: 'active', price: 'price_sponsored', metadata: s.metadata }),
      { created: t0 + 60 },
    );
    expect(await sponsor(s)).toBe(false);
  });

  it('deleted delivered before the checkout completion: recognised by our reference, the site is queued without the sponsor slot', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key, { plan: 'sponsored' });
    const session = paidSession({ ...p, plan: 'sponsored' });
    const t0 = now() - 1000;
    const metadata = refMetadata(await sessionRef(t, p.sessionId), { purpose: 'sponsorship', site_id: p.siteId });
    const sub = subscription(String(session.subscription), { status: 'canceled', price: 'price_sponsored', metadata });
    expect((await sendEvent(t, 'customer.subscription.deleted', sub, { created: t0 + 100 })).status).toBe(200);
    // The fact lives in a column of our session record, not in the wording of a log summary.
    const [remembered] = await queryRows<{ deleted_at: string | null }>(
      t.deps.db,
      sql`SELECT to_char(subscription_deleted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS deleted_at FROM checkout_sessions WHERE id = ${p.sessionId}`,
    );
    expect(remembered?.deleted_at).toBe(iso(t0 + 100));
    expect((await sendEvent(t, 'checkout.session.completed', session, { created: t0 })).status).toBe(200);
    expect(await siteRow(t, p.siteId)).toMatchObject({
      status: 'queued',
      is_sponsor: false,
      stripe_subscription_id: session.subscription,
    });
  });

  it('a sponsored conflict cancels the subscription and refunds its first invoice', () =>
    sponsoredConflictCancelsSubscription(ctx()));
});

const account = (id: string) => accountRow(t, id);
const submitStatus = (key: string) => submitStatusOf(t, key);

describe('memberships bought through Stripe', () => {
  it('our checkout links the customer and starts its tier; later events of its subscription set tier, status, period end', async () => {
    const m = await t.member('none');
    const checkout = await membershipCheckout(context, m.key, 'member');
    const customer = `cus_${rand()}`;
    const subId = `sub_${rand()}`;
    const t0 = now() - 500;
    const session = membershipSession(checkout, m.accountId, { customer, subscription: subId });
    expect((await sendEvent(t, 'checkout.session.completed', session, { created: t0 })).status).toBe(200);
    expect(await account(m.accountId)).toMatchObject({
      tier: 'member',
      membership_status: 'active',
      stripe_customer_id: customer,
      membership_source: 'stripe',
    });

    // The completed session linked the subscription id: its events need no metadata to be recognised.
    const end = now() + 20 * 86400;
    await sendEvent(
      t,
      'customer.subscription.updated',
      subscription(subId, { price: 'price_member_feature', customer, periodEnd: end }),
      { created: t0 + 10 },
    );
    expect(await account(m.accountId)).toMatchObject({
      tier: 'memberFeature',
      membership_status: 'active',
      membership_period_end: iso(end),
    });
    expect(await submitStatus(m.key)).toBe(201);
  });

  it('subscription.created before the checkout completes is recognised by the reference our session put into its metadata', async () => {
    const m = await t.member('none');
    const checkout = await membershipCheckout(context, m.key, 'member');
    const customer = `cus_${rand()}`;
    const end = now() + 10 * 86400;
    const sub = subscription(`sub_${rand()}`, {
      price: 'price_member',
      customer,
      periodEnd: end,
      metadata: refMetadata(checkout.ref),
    });
    expect((await sendEvent(t, 'customer.subscription.created', sub, { created: now() - 50 })).status).toBe(200);
    expect(await account(m.accountId)).toMatchObject({
      tier: 'member',
      membership_status: 'active',
      stripe_customer_id: customer,
      membership_period_end: iso(end),
    });
  });

  it('membership checkouts: only ours start a tier, and ours must charge what we created', () =>
    membershipCheckoutsAreOursOnly(ctx()));

  it('a failed renewal keeps the membership until the paid period ends; deletion ends it', () =>
    membershipRenewalAndDeletion(ctx()));

  it('created, updated and deleted delivered in reverse order apply in event-time order', () =>
    membershipReverseOrder(ctx()));

  it('operator vs Stripe: the newer change wins, in both directions', async () => {
    const m = await t.member('none');
    const customer = `cus_${rand()}`;
    const subId = `sub_${rand()}`;
    const checkout = await membershipCheckout(context, m.key, 'member');
    await sendEvent(
      t,
      'customer.subscription.created',
      subscription(subId, { price: 'price_member', customer, metadata: refMetadata(checkout.ref) }),
      { created: now() - 600 },
    );
    expect((await account(m.accountId)).tier).toBe('member');

    const put = await t.request(`/api/v1/admin/accounts/${m.accountId}/membership`, {
      method: 'PUT',
      key: ADMIN_TOKEN,
      json: { tier: 'memberFeature' },
    });
    expect(put.status).toBe(200);
    // A Stripe event created before the operator's change (delivered late) does not overwrite it.
    await sendEvent(t, 'customer.subscription.updated', subscription(subId, { price: 'price_member', customer }), {
      created: now() - 300,
    });
    expect(await account(m.accountId)).toMatchObject({ tier: 'memberFeature', membership_source: 'operator' });
    // A Stripe event created after it does.
    await sendEvent(
      t,
      'customer.subscription.deleted',
      subscription(subId, { status: 'canceled', price: 'price_member', customer }),
      { created: now() + 2 },
    );
    expect(await account(m.accountId)).toMatchObject({ tier: 'none', membership_source: 'stripe' });
  });
});

describe('POST /api/v1/membership/checkout', () => {
  it("returns a checkout link for the caller's account and tier", async () => {
    const payments = recordingPayments();
    const t2 = await createTestApp({ env: { ...stripeModeEnv() }, overrides: { payments, queue: recordingQueue() } });
    try {
      const m = await t2.member('none');
      const res = await t2.request('/api/v1/membership/checkout', {
        method: 'POST',
        key: m.key,
        json: { tier: 'memberFeature' },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        checkout_url: expect.stringMatching(/^https:\/\//),
        expires_at: expect.any(String),
        tier: 'memberFeature',
      });
      const call = payments.calls.find((c) => c.method === 'createMembershipCheckout');
      expect(call).toEqual({
        method: 'createMembershipCheckout',
        args: [
          {
            accountId: m.accountId,
            tier: 'memberFeature',
            email: m.email,
            customerId: null,
            origin: 'http://tooldir.test',
          },
        ],
        result: expect.stringMatching(/^cs_test_/),
      });
      // Recorded before the link was handed out, with what it charges.
      const recorded = await queryRows(
        t2.deps.db,
        sql`SELECT purpose, account_id, site_id, plan, mode, amount_total::int AS amount_total, currency, ref IS NOT NULL AS has_ref
            FROM checkout_sessions WHERE id = ${String(call?.result)}`,
      );
      expect(recorded).toEqual([
        {
          purpose: 'membership',
          account_id: m.accountId,
          site_id: null,
          plan: 'memberFeature',
          mode: 'subscription',
          amount_total: 1990,
          currency: 'usd',
          has_ref: true,
        },
      ]);
      expect(
        (await t2.request('/api/v1/membership/checkout', { method: 'POST', key: m.key, json: { tier: 'gold' } }))
          .status,
      ).toBe(400);
      expect(
        (await t2.request('/api/v1/membership/checkout', { method: 'POST', json: { tier: 'member' } })).status,
      ).toBe(401);
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

  it("with local payments returns the local checkout page, recorded with the plan table's monthly price", async () => {
    const t2 = await createTestApp({ overrides: { queue: recordingQueue() } });
    try {
      const m = await t2.member('none');
      const res = await t2.request('/api/v1/membership/checkout', {
        method: 'POST',
        key: m.key,
        json: { tier: 'member' },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { checkout_url: string; expires_at: string; tier: string };
      expect(body).toEqual({
        checkout_url: expect.stringMatching(/^http:\/\/tooldir\.test\/checkout\/cs_local_[0-9A-Za-z]{24}$/),
        expires_at: expect.any(String),
        tier: 'member',
      });
      expect(new Date(body.expires_at).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
      const sessionId = body.checkout_url.split('/').pop()!;
      const recorded = await queryRows(
        t2.deps.db,
        sql`SELECT purpose, account_id, plan, mode, amount_total::int AS amount_total, currency, ref LIKE 'ref_local_%' AS local_ref
            FROM checkout_sessions WHERE id = ${sessionId}`,
      );
      expect(recorded).toEqual([
        {
          purpose: 'membership',
          account_id: m.accountId,
          plan: 'member',
          mode: 'subscription',
          amount_total: membershipPrices.member.amountCents,
          currency: 'usd',
          local_ref: true,
        },
      ]);
      // The link is this server's own checkout page, showing the tier and its price.
      const page = await t2.request(`/checkout/${sessionId}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('49.00 USD per month');
    } finally {
      await t2.close();
    }
  });
});
