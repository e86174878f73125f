// Only Checkout Sessions, subscriptions and invoices this service created change anything (docs/payments.md
// "Only our own sessions count"), on PGlite. The shared scenarios also run on PostgreSQL through the Neon HTTP
// stand-in (test/e2e/webhook-neon-http.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { readRecord } from '../../helpers/stripe/checkout-scenarios';
import {
  expiredLinkShowsWhenItStopped,
  foreignSessionWithoutReference,
  foreignSubscriptionEvents,
  ignoredLines,
  metadataClaimingAnotherPlan,
  moneyCalls,
  oneCentIsRefunded,
  paymentLinkSessionNamingPendingSite,
  subscriptionModeForOneTimePlanIsRefunded,
  wrongCurrencyIsRefunded,
} from '../../helpers/stripe/ownership-scenarios';
import {
  createWebhookContext,
  paidSession,
  pendingRow,
  sendEvent,
  siteRow,
  submitUnpaid,
  type WebhookScenarioContext,
} from '../../helpers/stripe/payments-fixture';
import { fixtureId } from '../../helpers/stripe/stripe-fixtures';
import { stripeModeEnv, subscription } from '../../helpers/stripe/subscription-objects';

let local: WebhookScenarioContext;
let stripe: WebhookScenarioContext;
beforeAll(async () => {
  local = await createWebhookContext();
  stripe = await createWebhookContext({ env: stripeModeEnv() });
});
afterAll(async () => {
  await local?.t.close();
  await stripe?.t.close();
});

describe('events about objects this service did not create', () => {
  it('a Payment Link session naming a pending site changes nothing and refunds nothing', () =>
    paymentLinkSessionNamingPendingSite(local));
  it('a foreign session without client_reference_id: every session event is acknowledged and ignored', () =>
    foreignSessionWithoutReference(local));
  it('a foreign subscription on our Prices claiming our account and site: its events change and cancel nothing', () =>
    foreignSubscriptionEvents(stripe));

  it('a cs_local_ id the local checkout never made is not ours either', async () => {
    const m = await local.t.member('none');
    const p = await submitUnpaid(local.t, m.key);
    const forged = paidSession({ ...p, sessionId: `cs_local_${'x'.repeat(24)}` });
    const calls = moneyCalls(local);
    expect((await sendEvent(local.t, 'checkout.session.completed', forged)).status).toBe(200);
    expect(await pendingRow(local.t, p.siteId)).toMatchObject({ state: 'open' });
    expect(ignoredLines(local, forged.id)).toHaveLength(1);
    expect(moneyCalls(local)).toBe(calls);
  });
});

describe('our own session, paid differently than created', () => {
  it('1 cent is refunded; the caller reads rejected, naming amount_total', () => oneCentIsRefunded(local));
  it('a wrong currency is refunded; the caller reads rejected, naming currency', () => wrongCurrencyIsRefunded(local));
  it('a subscription-mode session for a one-time plan: subscription cancelled and refunded, naming mode', () =>
    subscriptionModeForOneTimePlanIsRefunded(local));
  it('metadata claiming another plan: the site gets the plan our session was made for', () =>
    metadataClaimingAnotherPlan(local));

  it('a 100 % discount (0, no_payment_required) is refunded as amount_total when promotion codes were not allowed', async () => {
    const m = await local.t.member('none');
    const p = await submitUnpaid(local.t, m.key);
    const free = paidSession(p, { amount_total: 0, payment_status: 'no_payment_required', payment_intent: null });
    expect((await sendEvent(local.t, 'checkout.session.completed', free)).status).toBe(200);
    expect(await siteRow(local.t, p.siteId)).toBeUndefined();
    expect(await readRecord(local.t, m.key, p.siteId)).toMatchObject({
      status: 'rejected',
      rejection_reason: expect.stringContaining('amount_total: 0 usd instead of 1590 usd'),
    });
  });

  it('with promotion codes allowed, a 100 % discount queues the site; any other amount is still refunded', async () => {
    const promo = await createWebhookContext({ promotionCodes: true });
    try {
      const m = await promo.t.member('none');
      const p = await submitUnpaid(promo.t, m.key);
      const [row] = await queryRows<{ promotion_codes: boolean }>(
        promo.t.deps.db,
        sql`SELECT promotion_codes FROM checkout_sessions WHERE id = ${p.sessionId}`,
      );
      expect(row?.promotion_codes).toBe(true);
      const free = paidSession(p, { amount_total: 0, payment_status: 'no_payment_required', payment_intent: null });
      expect((await sendEvent(promo.t, 'checkout.session.completed', free)).status).toBe(200);
      expect(await siteRow(promo.t, p.siteId)).toMatchObject({ status: 'queued', plan: 'basic' });

      const half = await submitUnpaid(promo.t, m.key);
      const discounted = paidSession(half, { amount_total: 795 });
      expect((await sendEvent(promo.t, 'checkout.session.completed', discounted)).status).toBe(200);
      expect(await siteRow(promo.t, half.siteId)).toBeUndefined();
      expect(promo.payments.calls).toContainEqual({
        method: 'refund',
        args: [discounted.payment_intent, expect.stringContaining('amount_total: 795 usd')],
      });
      // 0 while Stripe still says "paid" is not a discount code: refunded too.
      const zero = await submitUnpaid(promo.t, m.key);
      expect(
        (await sendEvent(promo.t, 'checkout.session.completed', paidSession(zero, { amount_total: 0 }))).status,
      ).toBe(200);
      expect(await siteRow(promo.t, zero.siteId)).toBeUndefined();
    } finally {
      await promo.t.close();
    }
  });
});

describe('every session we make is recorded', () => {
  it('the 402 path records the session with what it charges, in the statement that stores the pending record', async () => {
    const m = await local.t.member('none');
    const p = await submitUnpaid(local.t, m.key, { plan: 'featured' });
    const rows = await queryRows(
      local.t.deps.db,
      sql`SELECT purpose, account_id, site_id, plan, mode, amount_total::int AS amount_total, currency, promotion_codes, subscription_id
          FROM checkout_sessions WHERE id = ${p.sessionId}`,
    );
    expect(rows).toEqual([
      {
        purpose: 'submission',
        account_id: m.accountId,
        site_id: p.siteId,
        plan: 'featured',
        mode: 'payment',
        amount_total: 1990,
        currency: 'usd',
        promotion_codes: false,
        subscription_id: null,
      },
    ]);
  });

  it('a completed sponsored session links its subscription to our record', async () => {
    const m = await local.t.member('none');
    const p = await submitUnpaid(local.t, m.key, { plan: 'pro' });
    const session = paidSession({ ...p, plan: 'pro' });
    expect((await sendEvent(local.t, 'checkout.session.completed', session)).status).toBe(200);
    const [row] = await queryRows<{ subscription_id: string; mode: string }>(
      local.t.deps.db,
      sql`SELECT subscription_id, mode FROM checkout_sessions WHERE id = ${p.sessionId}`,
    );
    expect(row).toEqual({ subscription_id: session.subscription, mode: 'subscription' });
    expect(await siteRow(local.t, p.siteId)).toMatchObject({ plan: 'pro', is_sponsor: true });
  });
});

describe('an expired checkout is visible', () => {
  it('expires_at becomes the moment the link stopped working; a re-submit shows the new live link', () =>
    expiredLinkShowsWhenItStopped(local));

  it('a session expired at its natural end keeps its expires_at', async () => {
    const m = await local.t.member('none');
    const p = await submitUnpaid(local.t, m.key);
    const before = await readRecord(local.t, m.key, p.siteId);
    const late = Math.floor(Date.parse(String(before.expires_at)) / 1000) + 90;
    expect(
      (
        await sendEvent(
          local.t,
          'checkout.session.expired',
          paidSession(p, { status: 'expired', payment_status: 'unpaid', payment_intent: null }),
          { created: late },
        )
      ).status,
    ).toBe(200);
    expect(await readRecord(local.t, m.key, p.siteId)).toEqual(before);
    expect(await pendingRow(local.t, p.siteId)).toMatchObject({ state: 'expired' });
  });
});

it('a subscription of another product: acknowledged, one warn line', async () => {
  const sub = fixtureId('sub');
  const res = await sendEvent(stripe.t, 'customer.subscription.updated', subscription(sub, { price: 'price_other' }));
  expect(res.status).toBe(200);
  expect(ignoredLines(stripe, sub)).toHaveLength(1);
});
