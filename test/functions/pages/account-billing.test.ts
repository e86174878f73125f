// "Manage billing" (PGlite, app.request): locally the billing page cancels through a signed
// customer.subscription.deleted to the webhook's own entry; in Stripe mode (the loopback Stripe stand-in) the
// membership checkout collects tax and "Manage billing" opens the Customer Portal for the account's customer.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { describePolicy } from '../../../src/rate-limits/describe';
import { membershipPrices } from '../../../src/catalog/plans';
import { createTestApp, uniqueName, uniqueUrl, WEBHOOK_SECRET, type TestApp } from '../../helpers/test-app';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/standins/stripe-api';
import { buildStripeEvent, signStripeEvent } from '../../helpers/standins/stripe-signature';
import { PageClient, csrfOf, signedInMember } from './account-client';

const payTokenOf = (html: string) => /name="_csrf" value="([0-9a-f]{64})"/.exec(html)?.[1] ?? '';

async function startCheckout(client: PageClient, tier: string) {
  const { html } = await client.page(`/account/membership?tier=${tier}`);
  return client.request('/account/membership/checkout', { form: { _csrf: csrfOf(html), tier } });
}

const accountOf = async (t: TestApp, accountId: string) =>
  (
    await queryRows<{
      tier: string;
      membership_status: string;
      stripe_customer_id: string | null;
      stripe_subscription_id: string | null;
    }>(
      t.deps.db,
      sql`SELECT tier, membership_status, stripe_customer_id, stripe_subscription_id FROM accounts WHERE id = ${accountId}::uuid`,
    )
  )[0]!;

describe('local billing page (no Stripe)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ overrides: { queue: recordingQueue() } });
  });
  afterAll(() => t.close());

  async function buyLocally(client: PageClient, tier: 'member' | 'memberFeature') {
    const started = await startCheckout(client, tier);
    const path = new URL(started.headers.get('location')!).pathname;
    const { html } = await client.page(path);
    expect((await client.request(`${path}/pay`, { form: { _csrf: payTokenOf(html) } })).status).toBe(303);
  }

  it('"Manage billing" leads to the local page, whose Cancel goes through the signed webhook and ends the membership', async () => {
    const { m, client } = await signedInMember(t);
    await buyLocally(client, 'member');
    const before = await accountOf(t, m.accountId);
    expect(before).toMatchObject({ tier: 'member', membership_status: 'active' });

    let { html } = await client.page('/account');
    const manage = await client.request('/account/billing', { form: { _csrf: csrfOf(html) } });
    expect(manage.status).toBe(303);
    expect(manage.headers.get('location')).toBe('/account/billing');
    ({ html } = await client.page('/account/billing'));
    expect(html).toContain('<dd id="billing-tier">Member</dd>');
    expect(html).toContain(before.stripe_subscription_id!);
    expect(html).toContain('Cancel membership');

    const cancelled = await client.request('/account/billing/cancel', { form: { _csrf: csrfOf(html) } });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe('/account/billing');
    // The deletion event reached the webhook's entry: recorded like any Stripe event, with what it did.
    const [event] = await queryRows<{ summary: string }>(
      t.deps.db,
      sql`SELECT summary FROM stripe_events WHERE type = 'customer.subscription.deleted' AND summary LIKE ${`%${m.accountId}%`}`,
    );
    expect(event!.summary).toContain(`membership of ${m.accountId}: none canceled`);
    expect(await accountOf(t, m.accountId)).toMatchObject({
      tier: 'none',
      membership_status: 'canceled',
      stripe_subscription_id: before.stripe_subscription_id,
    });
    const [session] = await queryRows<{ ended: boolean }>(
      t.deps.db,
      sql`SELECT subscription_deleted_at IS NOT NULL AS ended FROM checkout_sessions WHERE subscription_id = ${before.stripe_subscription_id}`,
    );
    expect(session!.ended).toBe(true);

    ({ html } = await client.page('/account/billing'));
    expect(html).toContain('<dd id="billing-status">canceled</dd>');
    expect(html).not.toContain('Cancel membership');
    // Cancelling again has nothing to cancel.
    const again = await client.request('/account/billing/cancel', { form: { _csrf: csrfOf(html) } });
    expect(again.status).toBe(409);
    ({ html } = await client.page('/account'));
    expect(html).toContain('id="no-membership"');
    expect(html).toContain('Manage billing'); // the customer stays: a later membership bills it again
    const submit = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: uniqueName(), url: uniqueUrl() },
    });
    expect(submit.status).toBe(402);
    expect((await submit.json()).reason).toBe('no_membership');
  });

  it('an operator-set membership has no subscription to cancel, and no billing button', async () => {
    const { client } = await signedInMember(t, 'member');
    let { html } = await client.page('/account');
    expect(html).not.toContain('Manage billing');
    ({ html } = await client.page('/account/billing'));
    expect(html).toContain('set by the operator');
    expect(html).not.toContain('Cancel membership');
    expect((await client.request('/account/billing/cancel', { form: { _csrf: csrfOf(html) } })).status).toBe(409);
  });

  it('refuses a missing or foreign CSRF token (403) and changes nothing', async () => {
    const { m, client } = await signedInMember(t);
    await buyLocally(client, 'member');
    const { html } = await client.page('/account/billing');
    expect((await client.request('/account/billing/cancel', { form: {} })).status).toBe(403);
    expect(
      (
        await client.request('/account/billing/cancel', {
          form: { _csrf: csrfOf(html) },
          headers: { 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(403);
    expect((await client.request('/account/billing', { form: { _csrf: 'nope' } })).status).toBe(403);
    expect(await accountOf(t, m.accountId)).toMatchObject({ tier: 'member', membership_status: 'active' });
  });

  it('signed out: sign-in first, with next back to the billing page or the account', async () => {
    const stranger = new PageClient(t);
    for (const [method, path, next] of [
      ['GET', '/account/billing', '/account/billing'],
      ['POST', '/account/billing', '/account'],
      ['POST', '/account/billing/cancel', '/account/billing'],
    ] as const) {
      const res = await stranger.request(path, method === 'POST' ? { form: { _csrf: 'x' } } : {});
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(
        next === '/account' ? '/account/sign-in' : `/account/sign-in?next=${encodeURIComponent(next)}`,
      ); // sign-in lands on /account anyway
    }
  });

  it('cancels count against the billing bucket (10 per minute per account)', async () => {
    const { client } = await signedInMember(t, 'member');
    const { html } = await client.page('/account/billing');
    for (let i = 0; i < 10; i++)
      expect((await client.request('/account/billing/cancel', { form: { _csrf: csrfOf(html) } })).status).toBe(409);
    const refused = await client.request('/account/billing/cancel', { form: { _csrf: csrfOf(html) } });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(describePolicy('billingPortal'));
  });
});

describe('Stripe mode (Stripe stand-in on loopback)', () => {
  let t: TestApp;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    // The membership Prices charge what the plan table lists, as docs/payments.md asks of a real account.
    stripe = await startStripeStandIn({
      prices: {
        price_member: { unitAmount: membershipPrices.member.amountCents, currency: 'usd' },
        price_member_feature: { unitAmount: membershipPrices.memberFeature.amountCents, currency: 'usd' },
      },
    });
    t = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_billing_0000000000',
        STRIPE_API_URL: stripe.url,
        STRIPE_PRICE_BASIC: 'price_basic',
        STRIPE_PRICE_FEATURED: 'price_featured',
        STRIPE_PRICE_SPONSORED: 'price_sponsored',
        STRIPE_PRICE_MEMBER: 'price_member',
        STRIPE_PRICE_MEMBER_FEATURE: 'price_member_feature',
        STRIPE_AUTOMATIC_TAX: 'on',
        STRIPE_TAX_ID_COLLECTION: 'on',
        STRIPE_INVOICE_CREATION: 'on',
      },
      overrides: { queue: recordingQueue() },
    });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  /** Stripe's delivery of an event about a stand-in object, signed with the endpoint's secret. */
  async function deliver(type: string, object: Record<string, unknown>) {
    const body = buildStripeEvent(type, object);
    const res = await t.request('/api/webhooks/stripe', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'stripe-signature': signStripeEvent(body, WEBHOOK_SECRET) },
    });
    expect(res.status).toBe(200);
  }

  /** Buys `tier` from the account area: the POST redirects to Stripe Checkout, the buyer pays (with tax), Stripe sends the completion. */
  async function buy(client: PageClient, tier: 'member' | 'memberFeature', tax: number) {
    const res = await startCheckout(client, tier);
    expect(res.status).toBe(303);
    const url = res.headers.get('location')!;
    expect(url.startsWith(`${stripe.url}/checkout/cs_test_`)).toBe(true);
    const sessionId = url.split('/').pop()!;
    const request = stripe.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.body.mode === 'subscription' && r.idempotencyKey?.includes(tier),
    )!;
    const completed = stripe.completeSession(sessionId, { tax });
    await deliver('checkout.session.completed', completed);
    return { sessionId, completed, request };
  }

  it('the membership checkout collects tax; a taxed payment starts the tier; "Manage billing" opens the Customer Portal', async () => {
    const { m, client } = await signedInMember(t);
    const page = await client.request('/account/membership?tier=member');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(
      `form-action 'self' https://checkout.stripe.com https://billing.stripe.com ${new URL(stripe.url).origin};`,
    );
    stripe.clearRequests();
    const { completed } = await buy(client, 'member', 245);
    const sent = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(sent.body).toMatchObject({
      mode: 'subscription',
      customer_email: m.email,
      automatic_tax: { enabled: 'true' },
      tax_id_collection: { enabled: 'true' },
    });
    expect(sent.body.invoice_creation).toBeUndefined();
    expect(completed).toMatchObject({
      amount_total: membershipPrices.member.amountCents + 245,
      total_details: { amount_tax: 245 },
    });
    const account = await accountOf(t, m.accountId);
    expect(account).toMatchObject({
      tier: 'member',
      membership_status: 'active',
      stripe_customer_id: completed.customer,
    });

    const { html } = await client.page('/account');
    expect(html).toContain('Manage billing');
    stripe.clearRequests();
    const portal = await client.request('/account/billing', { form: { _csrf: csrfOf(html) } });
    expect(portal.status).toBe(303);
    expect(portal.headers.get('location')).toMatch(new RegExp(`^${stripe.url}/p/session/bps_`));
    expect(stripe.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/billing_portal/sessions',
        body: { customer: completed.customer, return_url: 'http://tooldir.test/account' },
      }),
    ]);
    // The local stand-in page does not exist in Stripe mode.
    expect((await client.request('/account/billing')).status).toBe(404);
    expect((await client.request('/account/billing/cancel', { form: { _csrf: csrfOf(html) } })).status).toBe(404);
  });

  it('an upgrade bills the same customer (address and name saved for tax) and cancels the old subscription, prorated', async () => {
    const { m, client } = await signedInMember(t);
    await buy(client, 'member', 0);
    const member = await accountOf(t, m.accountId);
    stripe.clearRequests();
    await buy(client, 'memberFeature', 0);
    const sent = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(sent.body).toMatchObject({
      customer: member.stripe_customer_id,
      customer_update: { address: 'auto', name: 'auto' },
    });
    expect(sent.body.customer_email).toBeUndefined();
    expect(await accountOf(t, m.accountId)).toMatchObject({
      tier: 'memberFeature',
      stripe_customer_id: member.stripe_customer_id,
    });
    expect(stripe.requests).toContainEqual(
      expect.objectContaining({
        method: 'DELETE',
        path: `/v1/subscriptions/${member.stripe_subscription_id}`,
        body: { prorate: 'true' },
      }),
    );
    expect(stripe.cancelledSubscriptions).toContain(member.stripe_subscription_id);
  });

  it('an account without a Stripe customer sees no "Manage billing"; its POST is refused without calling Stripe', async () => {
    const { client } = await signedInMember(t, 'member');
    const { html } = await client.page('/account');
    expect(html).not.toContain('Manage billing');
    stripe.clearRequests();
    const res = await client.request('/account/billing', { form: { _csrf: csrfOf(html) } });
    expect(res.status).toBe(404);
    expect(stripe.requests).toEqual([]);
  });

  it('a one-time listing collects tax and an invoice; its taxed payment is queued, not refunded as a mismatch', async () => {
    const m = await t.member('none');
    stripe.clearRequests();
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: uniqueName(), url: uniqueUrl() },
    });
    expect(res.status).toBe(402);
    const { site_id, checkout_url } = (await res.json()) as { site_id: string; checkout_url: string };
    expect(stripe.requests[0]!.body).toMatchObject({
      mode: 'payment',
      automatic_tax: { enabled: 'true' },
      tax_id_collection: { enabled: 'true' },
      invoice_creation: { enabled: 'true' },
    });
    const completed = stripe.completeSession(checkout_url.split('/').pop()!, { tax: 302 });
    expect(completed.amount_total).toBe(1590 + 302);
    await deliver('checkout.session.completed', completed);
    const read = await t.request(`/api/v1/sites/${site_id}`, { key: m.key });
    expect((await read.json()).status).toBe('queued');

    // An amount that is not ours plus the reported tax is still a mismatch, refunded.
    const other = await t.member('none');
    const res2 = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: other.key,
      json: { name: uniqueName(), url: uniqueUrl() },
    });
    const pending = (await res2.json()) as { site_id: string; checkout_url: string };
    const overcharged = {
      ...stripe.completeSession(pending.checkout_url.split('/').pop()!, { tax: 302 }),
      amount_total: 1590 + 303,
    };
    await deliver('checkout.session.completed', overcharged);
    const read2 = await (await t.request(`/api/v1/sites/${pending.site_id}`, { key: other.key })).json();
    expect(read2).toMatchObject({
      status: 'rejected',
      rejection_reason: expect.stringContaining('amount_total: 1893 usd instead of 1590 usd'),
    });
  });
});
