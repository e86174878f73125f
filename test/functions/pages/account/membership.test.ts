// Memberships from the account area, local payments (PGlite, app.request): the /account section, the membership
// page and its checkout POST, the local checkout of a membership paid through the signed webhook, upgrades.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalPayments } from '../../../../src/adapters/payments/local';
import { queryRows } from '../../../../src/db/client';
import { membershipPrices, planPrices } from '../../../../src/catalog/plans';
import { describePolicy } from '../../../../src/rate-limits/describe';
import { createTestApp, uniqueName, uniqueUrl, type TestApp } from '../../../helpers/test-app';
import { recordingQueue } from '../../../helpers/stripe/payments-fixture';
import { PageClient, csrfOf, signedInMember } from './account-client';

const replaced: string[] = [];
let t: TestApp;
beforeAll(async () => {
  // The local adapter as built from configuration, with the upgrade's cancel of the old subscription recorded.
  const local = createLocalPayments(planPrices, undefined, membershipPrices);
  const payments = { ...local, cancelReplacedSubscription: async (id: string) => void replaced.push(id) };
  t = await createTestApp({ overrides: { payments, queue: recordingQueue() } });
});
afterAll(() => t.close());

const payTokenOf = (html: string) => /name="_csrf" value="([0-9a-f]{64})"/.exec(html)?.[1] ?? '';

const onceOf = (html: string) => /name="once" value="([0-9A-Za-z]{32})"/.exec(html)?.[1] ?? '';

/** POST the membership page's form as the page renders it: its CSRF token, its once-key and the tier. */
async function startCheckout(client: PageClient, tier: string) {
  const { html } = await client.page(`/account/membership?tier=${tier}`);
  return client.request('/account/membership/checkout', { form: { _csrf: csrfOf(html), once: onceOf(html), tier } });
}

/** The whole purchase: membership page → checkout POST → local checkout page → Pay. */
async function buy(client: PageClient, tier: 'member' | 'memberFeature') {
  const started = await startCheckout(client, tier);
  expect(started.status).toBe(303);
  const checkoutPath = new URL(started.headers.get('location')!).pathname;
  expect(checkoutPath).toMatch(/^\/checkout\/cs_local_[0-9A-Za-z]{24}$/);
  const { res, html } = await client.page(checkoutPath);
  expect(res.status).toBe(200);
  const paid = await client.request(`${checkoutPath}/pay`, { form: { _csrf: payTokenOf(html) } });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe('/checkout/membership');
  return { sessionId: checkoutPath.split('/').pop()!, checkoutPath, html };
}

const accountRow = async (accountId: string) =>
  (
    await queryRows<{
      tier: string;
      membership_status: string;
      membership_source: string;
      stripe_customer_id: string | null;
      stripe_subscription_id: string | null;
      period_end: string | null;
    }>(
      t.deps.db,
      sql`SELECT tier, membership_status, membership_source, stripe_customer_id, stripe_subscription_id, membership_period_end::text AS period_end
          FROM accounts WHERE id = ${accountId}::uuid`,
    )
  )[0]!;

describe('GET /account/membership', () => {
  it('shows the chosen tier with its price from the plan table, its quota and a CSRF-protected button', async () => {
    const { client } = await signedInMember(t);
    for (const [tier, price, quota, covers] of [
      ['member', '49.00 USD per month', '5 submissions per UTC day', 'basic listings'],
      ['memberFeature', '99.00 USD per month', '10 submissions per UTC day', 'basic and featured listings'],
    ] as const) {
      const { res, html } = await client.page(`/account/membership?tier=${tier}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(html).toContain(`<dd id="price">${price}</dd>`);
      expect(html).toContain(`<dd id="tier-quota">${quota}</dd>`);
      expect(html).toContain(covers);
      expect(html).toMatch(
        /<form method="post" action="\/account\/membership\/checkout"><input type="hidden" name="_csrf" value="[0-9A-Za-z]{32}"><input type="hidden" name="once" value="[0-9A-Za-z]{32}"><input type="hidden" name="tier" value="(member|memberFeature)">/,
      );
      expect(html).toContain('Continue to payment');
      // Local payments: the form stays on this origin.
      expect(res.headers.get('content-security-policy')).toContain("form-action 'self';");
    }
    expect(membershipPrices.member.amountCents).toBe(4900);
  });

  it('answers an unknown or missing tier with a 400 page naming the tiers there are', async () => {
    const { client } = await signedInMember(t);
    for (const query of ['?tier=gold', '?tier=', '', '?tier=<b>x</b>']) {
      const { res, html } = await client.page(`/account/membership${query}`);
      expect(res.status).toBe(400);
      expect(html).toContain('role="alert"');
      expect(html).toContain('href="/account/membership?tier=member"');
      expect(html).toContain('href="/account/membership?tier=memberFeature"');
      expect(html).not.toContain('<b>x</b>');
      expect(html).not.toContain('Continue to payment');
    }
  });

  it('signed out: sign-in first, with next back to the page of the chosen tier', async () => {
    const stranger = new PageClient(t);
    const res = await stranger.request('/account/membership?tier=memberFeature');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `/account/sign-in?next=${encodeURIComponent('/account/membership?tier=memberFeature')}`,
    );
    const bad = await stranger.request('/account/membership?tier=gold');
    expect(bad.headers.get('location')).toBe('/account/sign-in');
  });

  it('tells a member that their tier (or a lower one) needs nothing, and offers the upgrade', async () => {
    const { client } = await signedInMember(t, 'member');
    let { html } = await client.page('/account/membership?tier=member');
    expect(html).toContain('You already have this membership');
    expect(html).not.toContain('Continue to payment');
    ({ html } = await client.page('/account/membership?tier=memberFeature'));
    expect(html).toContain('<h1>Upgrade to Member with featured</h1>');
    expect(html).toContain('your current subscription is cancelled');
    expect(html).toContain('Continue to payment');
    const top = await signedInMember(t, 'memberFeature');
    ({ html } = await top.client.page('/account/membership?tier=member'));
    expect(html).toContain('already includes everything this one covers');
    expect(html).not.toContain('Continue to payment');
  });
});

describe('POST /account/membership/checkout', () => {
  it('redirects (303) to the checkout link of the same verb as POST /api/v1/membership/checkout, recorded for the account', async () => {
    const { m, client } = await signedInMember(t);
    const res = await startCheckout(client, 'memberFeature');
    expect(res.status).toBe(303);
    const sessionId = res.headers.get('location')!.split('/').pop()!;
    expect(res.headers.get('location')).toBe(`http://tooldir.test/checkout/${sessionId}`);
    const rows = await queryRows(
      t.deps.db,
      sql`SELECT purpose, account_id, plan, mode, amount_total::int AS amount FROM checkout_sessions WHERE id = ${sessionId}`,
    );
    expect(rows).toEqual([
      { purpose: 'membership', account_id: m.accountId, plan: 'memberFeature', mode: 'subscription', amount: 9900 },
    ]);
  });

  it('a double click or a reload of the POST leads to the same checkout link; a new rendering of the page to a new one', async () => {
    const { m, client } = await signedInMember(t);
    const { html } = await client.page('/account/membership?tier=member');
    const form = { _csrf: csrfOf(html), once: onceOf(html), tier: 'member' };
    const clicks = await Promise.all([0, 1].map(() => client.request('/account/membership/checkout', { form })));
    const reload = await client.request('/account/membership/checkout', { form });
    const links = [...clicks, reload].map((r) => r.headers.get('location'));
    expect([...clicks, reload].map((r) => r.status)).toEqual([303, 303, 303]);
    expect(new Set(links).size).toBe(1);
    const sessions = async () =>
      (await queryRows(t.deps.db, sql`SELECT id FROM checkout_sessions WHERE account_id = ${m.accountId}::uuid`))
        .length;
    expect(await sessions()).toBe(1);
    expect((await startCheckout(client, 'member')).headers.get('location')).not.toBe(links[0]);
    expect(await sessions()).toBe(2);
  });

  it('refuses a missing or wrong CSRF token and a cross-site Origin (403), creating no session', async () => {
    const { m, client } = await signedInMember(t);
    const count = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            t.deps.db,
            sql`SELECT count(*)::int AS n FROM checkout_sessions WHERE account_id = ${m.accountId}::uuid`,
          )
        )[0]!.n,
      );
    expect((await client.request('/account/membership/checkout', { form: { tier: 'member' } })).status).toBe(403);
    expect(
      (await client.request('/account/membership/checkout', { form: { tier: 'member', _csrf: 'x'.repeat(32) } }))
        .status,
    ).toBe(403);
    const { html } = await client.page('/account/membership?tier=member');
    const crossSite = await client.request('/account/membership/checkout', {
      form: { tier: 'member', _csrf: csrfOf(html) },
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain('did not come from this site');
    expect(await count()).toBe(0);
  });

  it('signed out: sign-in first, with next to the membership page of the tier sent', async () => {
    const stranger = new PageClient(t);
    const res = await stranger.request('/account/membership/checkout', { form: { tier: 'member', _csrf: 'x' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `/account/sign-in?next=${encodeURIComponent('/account/membership?tier=member')}`,
    );
  });

  it('answers a bad tier with the 400 page', async () => {
    const { client } = await signedInMember(t);
    const { html } = await client.page('/account/membership?tier=member');
    const res = await client.request('/account/membership/checkout', { form: { _csrf: csrfOf(html), tier: 'gold' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('There is no membership called “gold”');
  });

  it('refuses (409) the tier the account already has, creating no session', async () => {
    const { m, client } = await signedInMember(t, 'memberFeature');
    const res = await startCheckout(client, 'memberFeature');
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('You already have this membership');
    expect(
      await queryRows(t.deps.db, sql`SELECT id FROM checkout_sessions WHERE account_id = ${m.accountId}::uuid`),
    ).toEqual([]);
  });

  it('counts against the same per-account bucket as the API (10 per minute), then a 429 page with Retry-After', async () => {
    const { m, client } = await signedInMember(t);
    const { html } = await client.page('/account/membership?tier=member');
    for (let i = 0; i < 5; i++)
      expect(
        (await client.request('/account/membership/checkout', { form: { _csrf: csrfOf(html), tier: 'member' } }))
          .status,
      ).toBe(303);
    for (let i = 0; i < 5; i++)
      expect(
        (await t.request('/api/v1/membership/checkout', { method: 'POST', key: m.key, json: { tier: 'member' } }))
          .status,
      ).toBe(200);
    const refused = await client.request('/account/membership/checkout', {
      form: { _csrf: csrfOf(html), tier: 'member' },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain(describePolicy('membershipCheckout'));
  });
});

describe('a membership bought from the account area (local checkout, signed webhook)', () => {
  it('POST → local checkout → Pay → webhook → /account shows the tier active → the API submits within quota', async () => {
    const { m, client } = await signedInMember(t);
    let { html } = await client.page('/account');
    expect(html).toContain(
      '<p id="no-membership">You have no membership. You can still submit any tool and pay for each one',
    );
    expect(html).toContain('href="/account/membership?tier=member"');
    expect(html).not.toContain('Manage billing');

    const { sessionId, html: checkoutHtml } = await buy(client, 'member');
    expect(checkoutHtml).toContain('<dd id="tier-name">Member</dd>');
    expect(checkoutHtml).toContain('49.00 USD per month');
    expect(checkoutHtml).toContain(m.email);

    // Both events went through the webhook's entry (signature verified) and were recorded.
    const events = await queryRows<{ type: string; summary: string }>(
      t.deps.db,
      sql`SELECT type, summary FROM stripe_events WHERE summary LIKE ${`%${m.accountId}%`} ORDER BY received_at, type`,
    );
    expect(events.map((e) => e.type).sort()).toEqual(['checkout.session.completed', 'customer.subscription.created']);
    const account = await accountRow(m.accountId);
    expect(account).toMatchObject({ tier: 'member', membership_status: 'active', membership_source: 'stripe' });
    expect(account.stripe_customer_id).toBe(`cus_local_${m.accountId.replaceAll('-', '')}`);
    expect(account.stripe_subscription_id).toBe(`sub_local_${sessionId.slice('cs_local_'.length)}`);
    // The period the subscription event carries: a month from now.
    const days = (new Date(account.period_end!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    const [session] = await queryRows<{ subscription_id: string }>(
      t.deps.db,
      sql`SELECT subscription_id FROM checkout_sessions WHERE id = ${sessionId}`,
    );
    expect(session!.subscription_id).toBe(account.stripe_subscription_id);

    ({ html } = await client.page('/account'));
    expect(html).toMatch(/id="tier">Member</);
    expect(html).toMatch(/id="membership-status">active</);
    expect(html).toMatch(/id="quota">0 of 5</);
    expect(html).toContain('action="/account/billing"');
    expect(html).toContain('Upgrade to Member with featured');

    const submitted = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: uniqueName(), url: uniqueUrl() },
    });
    expect(submitted.status).toBe(201);
    expect(await submitted.json()).toMatchObject({
      status: 'queued',
      via: 'membership',
      quota: { used_today: 1, daily_limit: 5 },
    });
    ({ html } = await client.page('/account'));
    expect(html).toMatch(/id="quota">1 of 5</);

    // The paid link is not paid again: its page and Pay lead to the thank-you page, nothing more is sent.
    const again = await client.request(`/checkout/${sessionId}`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/checkout/membership');
    const thanks = await client.page('/checkout/membership');
    expect(thanks.html).toContain('href="/account"');
  });

  it('a double-clicked Pay starts one subscription', async () => {
    const { m, client } = await signedInMember(t);
    const started = await startCheckout(client, 'memberFeature');
    const path = new URL(started.headers.get('location')!).pathname;
    const { html } = await client.page(path);
    const token = payTokenOf(html);
    const answers = await Promise.all([0, 1].map(() => client.request(`${path}/pay`, { form: { _csrf: token } })));
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const account = await accountRow(m.accountId);
    expect(account).toMatchObject({ tier: 'memberFeature', membership_status: 'active' });
    const subs = await queryRows(
      t.deps.db,
      sql`SELECT DISTINCT subscription_id FROM checkout_sessions WHERE account_id = ${m.accountId}::uuid`,
    );
    expect(subs).toEqual([{ subscription_id: account.stripe_subscription_id }]);
    expect(replaced).not.toContain(account.stripe_subscription_id);
  });

  it('an upgrade (member → memberFeature) is a new checkout whose payment cancels the old subscription', async () => {
    const { m, client } = await signedInMember(t);
    await buy(client, 'member');
    const before = await accountRow(m.accountId);
    const { html } = await client.page('/account');
    expect(html).toContain('href="/account/membership?tier=memberFeature"');
    await buy(client, 'memberFeature');
    const after = await accountRow(m.accountId);
    expect(after).toMatchObject({
      tier: 'memberFeature',
      membership_status: 'active',
      stripe_customer_id: before.stripe_customer_id,
    });
    expect(after.stripe_subscription_id).not.toBe(before.stripe_subscription_id);
    expect(replaced).toContain(before.stripe_subscription_id);
    const [old] = await queryRows<{ ended: boolean }>(
      t.deps.db,
      sql`SELECT subscription_deleted_at IS NOT NULL AS ended FROM checkout_sessions WHERE subscription_id = ${before.stripe_subscription_id}`,
    );
    expect(old!.ended).toBe(true);
    expect((await client.page('/account')).html).toMatch(/id="quota">0 of 10</);
  });

  it('an expired membership link shows 410 and Pay changes nothing; a forged Pay is refused', async () => {
    const { m, client } = await signedInMember(t);
    const started = await startCheckout(client, 'member');
    const path = new URL(started.headers.get('location')!).pathname;
    const { html } = await client.page(path);
    const forged = await client.request(`${path}/pay`, { form: { _csrf: '0'.repeat(64) } });
    expect(forged.status).toBe(403);
    await queryRows(
      t.deps.db,
      sql`UPDATE checkout_sessions SET created_at = now() - interval '25 hours' WHERE id = ${path.split('/').pop()!}`,
    );
    expect((await client.request(path)).status).toBe(410);
    expect((await client.request(`${path}/pay`, { form: { _csrf: payTokenOf(html) } })).status).toBe(410);
    expect(await accountRow(m.accountId)).toMatchObject({ tier: 'none', stripe_subscription_id: null });
  });
});

describe("/account's membership section at a known time", () => {
  it("shows today's quota and when it renews: the next midnight UTC in the site's date format, and in hours", async () => {
    const clock = new Date('2026-11-21T19:30:00.000Z');
    const fixed = await createTestApp({ overrides: { now: () => clock, queue: recordingQueue() } });
    try {
      const m = await fixed.member('memberFeature');
      const client = new PageClient(fixed);
      await client.signIn(m.email);
      const { html } = await client.page('/account');
      expect(html).toContain('Today (2026-11-21, UTC): <strong id="quota">0 of 10</strong>');
      expect(html).toContain('<span id="quota-reset">Resets 2026-11-22 00:00 UTC (in 5 hours).</span>');
      // The top tier has nothing to upgrade to; without a billing customer there is no "Manage billing".
      expect(html).not.toContain('/account/membership?tier=');
      expect(html).not.toContain('Manage billing');
    } finally {
      await fixed.close();
    }
  });
});
