import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { eventFixture as buildStripeEvent } from '../../helpers/stripe/stripe-fixtures';
import {
  createWebhookContext,
  currentSession,
  eventId,
  expiredSession,
  historyCount,
  paidSession,
  pendingRow,
  postEvent,
  recordingPayments,
  recordingQueue,
  sendEvent,
  siteRow,
  submitUnpaid,
  uniqueUrl,
  type WebhookScenarioContext,
} from '../../helpers/stripe/payments-fixture';
import {
  expiredSessionMarksPending,
  paidCheckoutQueuesPending,
  readRecord,
  refundsFor as refundCalls,
  sameEventFiveTimesAtOnce,
  urlTakenBeforePaymentIsRefunded,
} from '../../helpers/stripe/checkout-scenarios';

let context: WebhookScenarioContext;
let t: TestApp;
let payments: WebhookScenarioContext['payments'];
let queue: WebhookScenarioContext['queue'];
beforeAll(async () => {
  context = await createWebhookContext();
  ({ t, payments, queue } = context);
});
afterAll(() => t.close());

const ctx = () => context;
const read = (key: string, siteId: string) => readRecord(t, key, siteId);
const refundsFor = (paymentIntent: unknown) => refundCalls(payments, paymentIntent);

describe('checkout.session.completed (paid)', () => {
  it('queues the pending record with the same site_id, via payment, one history row, and enqueues the crawl', () =>
    paidCheckoutQueuesPending(ctx()));

  it('sets is_feature for the featured plan', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key, { plan: 'featured' });
    expect((await sendEvent(t, 'checkout.session.completed', paidSession(p))).status).toBe(200);
    expect(await siteRow(t, p.siteId)).toMatchObject({ status: 'queued', is_feature: true, plan: 'featured' });
  });

  it('the same event delivered 5 times concurrently makes exactly one transition, all 2xx', () =>
    sameEventFiveTimesAtOnce(ctx()));

  it('the promotion records its event id in the same statement; a later redelivery changes nothing', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    const session = paidSession(p);
    const id = eventId();
    const body = buildStripeEvent('checkout.session.completed', session, { id });
    expect((await postEvent(t, body)).status).toBe(200);
    const recorded = await queryRows<{ summary: string }>(
      t.deps.db,
      sql`SELECT summary FROM stripe_events WHERE id = ${id}`,
    );
    expect(recorded).toEqual([{ summary: `payment for ${p.siteId} (${p.sessionId})` }]);
    const jobsBefore = queue.jobs.length;
    expect((await postEvent(t, body)).status).toBe(200);
    expect(queue.jobs.length).toBe(jobsBefore);
    expect(refundsFor(session.payment_intent)).toEqual([]);
    expect(await historyCount(t, p.siteId)).toBe(1);
  });

  it('completed then async_payment_succeeded (two event ids, one session): one transition, no refund', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    const session = paidSession(p);
    expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
    expect((await sendEvent(t, 'checkout.session.async_payment_succeeded', session)).status).toBe(200);
    expect(await historyCount(t, p.siteId)).toBe(1);
    expect(refundsFor(session.payment_intent)).toEqual([]);
  });
});

describe('asynchronous payments', () => {
  it('completed with payment_status unpaid changes nothing; async_payment_succeeded queues', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    const session = paidSession(p, { payment_status: 'unpaid' });
    expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
    expect(await siteRow(t, p.siteId)).toBeUndefined();
    expect((await read(m.key, p.siteId)).status).toBe('pending_payment');
    expect(
      (await sendEvent(t, 'checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' })).status,
    ).toBe(200);
    expect((await siteRow(t, p.siteId))?.status).toBe('queued');
  });

  it('async_payment_failed leaves the record pending with its link', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    expect(
      (await sendEvent(t, 'checkout.session.async_payment_failed', paidSession(p, { payment_status: 'unpaid' })))
        .status,
    ).toBe(200);
    expect(await pendingRow(t, p.siteId)).toMatchObject({ state: 'open' });
    const record = await read(m.key, p.siteId);
    expect(record).toMatchObject({ status: 'pending_payment', checkout_url: expect.stringContaining(p.sessionId) });
  });
});

describe('checkout.session.expired', () => {
  it('marks the pending record expired when the session is its current one; still readable by id', () =>
    expiredSessionMarksPending(ctx()));

  it('ignores the expiry of a replaced session', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    await submitUnpaid(t, m.key, { name: p.name, url: p.url }); // re-submit: fresh link, same site_id
    expect(await currentSession(t, p.siteId)).not.toBe(p.sessionId);
    expect((await sendEvent(t, 'checkout.session.expired', expiredSession(p))).status).toBe(200);
    expect((await pendingRow(t, p.siteId))?.state).toBe('open');
  });

  it('an expired record whose (current) session is paid anyway is still honoured', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    await sendEvent(t, 'checkout.session.expired', expiredSession(p));
    expect((await sendEvent(t, 'checkout.session.completed', paidSession(p))).status).toBe(200);
    expect((await siteRow(t, p.siteId))?.status).toBe('queued');
  });
});

describe('re-submits and replaced links', () => {
  it('a re-submit expires the replaced Checkout Session', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    await submitUnpaid(t, m.key, { name: p.name, url: p.url, plan: 'featured' });
    expect(payments.calls).toContainEqual({ method: 'expireCheckout', args: [p.sessionId] });
  });

  it('a replaced link paid anyway is honoured while the record is pending, with the plan that was paid', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key); // basic
    await submitUnpaid(t, m.key, { name: p.name, url: p.url, plan: 'featured' });
    const oldPaid = paidSession(p, { metadata: { site_id: p.siteId, plan: 'basic' } });
    expect((await sendEvent(t, 'checkout.session.completed', oldPaid)).status).toBe(200);
    expect(await siteRow(t, p.siteId)).toMatchObject({
      status: 'queued',
      plan: 'basic',
      is_feature: false,
      stripe_checkout_session_id: p.sessionId,
    });
    expect(refundsFor(oldPaid.payment_intent)).toEqual([]);
  });

  it('the second of two paid links (old and new) is refunded: never two charges for one submission', async () => {
    const m = await t.member('none');
    const first = await submitUnpaid(t, m.key);
    const second = {
      ...first,
      sessionId: (await submitUnpaid(t, m.key, { name: first.name, url: first.url })).sessionId,
    };
    expect((await sendEvent(t, 'checkout.session.completed', paidSession(second))).status).toBe(200);
    const late = paidSession(first);
    expect((await sendEvent(t, 'checkout.session.completed', late)).status).toBe(200);
    expect(refundsFor(late.payment_intent)).toEqual([
      { method: 'refund', args: [late.payment_intent, expect.stringContaining('already')] },
    ]);
    expect(await historyCount(t, first.siteId)).toBe(1);
    expect((await read(m.key, first.siteId)).status).toBe('queued');
  });

  it('a re-submit by a caller who became a member answers 201 with the same site_id and expires the old link', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    const promote = await t.request(`/api/v1/admin/accounts/${m.accountId}/membership`, {
      method: 'PUT',
      key: ADMIN_TOKEN,
      json: { tier: 'member' },
    });
    expect([200, 201]).toContain(promote.status);
    const res = await t.request('/api/v1/submit-site', {
      method: 'POST',
      key: m.key,
      json: { name: p.name, url: p.url },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { site_id: string }).site_id).toBe(p.siteId);
    expect(payments.calls).toContainEqual({ method: 'expireCheckout', args: [p.sessionId] });
    // The old link paid anyway (a race with the expiry) is refunded, not applied twice.
    const paid = paidSession(p);
    expect((await sendEvent(t, 'checkout.session.completed', paid)).status).toBe(200);
    expect(refundsFor(paid.payment_intent)).toHaveLength(1);
    expect(await siteRow(t, p.siteId)).toMatchObject({ via: 'membership' });
  });
});

describe('pay-time conflicts are refunded', () => {
  it("URL taken by another member's queued site before payment: refund, record shows rejected with reason", () =>
    urlTakenBeforePaymentIsRefunded(ctx()));

  it('a redelivery of the refunded event refunds nothing more', async () => {
    const payer = await t.member('none');
    const url = uniqueUrl();
    const p = await submitUnpaid(t, payer.key, { url });
    const other = await t.member('member');
    await t.request('/api/v1/submit-site', { method: 'POST', key: other.key, json: { name: `Other ${p.name}`, url } });
    const session = paidSession(p);
    const body = buildStripeEvent('checkout.session.completed', session, { id: eventId() });
    expect((await postEvent(t, body)).status).toBe(200);
    expect((await postEvent(t, body)).status).toBe(200);
    expect(refundsFor(session.payment_intent)).toHaveLength(1);
  });

  it('name taken by someone else: refund', async () => {
    const payer = await t.member('none');
    const p = await submitUnpaid(t, payer.key);
    const other = await t.member('member');
    expect(
      (
        await t.request('/api/v1/submit-site', {
          method: 'POST',
          key: other.key,
          json: { name: p.name.toUpperCase(), url: uniqueUrl() },
        })
      ).status,
    ).toBe(201);
    const session = paidSession(p);
    await sendEvent(t, 'checkout.session.completed', session);
    expect(refundsFor(session.payment_intent)).toHaveLength(1);
    expect((await read(payer.key, p.siteId)).status).toBe('rejected');
  });

  it('a payment on our session whose record no longer exists (purged) is refunded and recorded', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    await queryRows(t.deps.db, sql`DELETE FROM pending_submissions WHERE id = ${p.siteId} RETURNING id`);
    const session = paidSession(p);
    const id = eventId();
    expect((await sendEvent(t, 'checkout.session.completed', session, { id })).status).toBe(200);
    expect(refundsFor(session.payment_intent)).toEqual([
      { method: 'refund', args: [session.payment_intent, expect.stringContaining('no longer exists')] },
    ]);
    expect(await queryRows(t.deps.db, sql`SELECT 1 AS one FROM stripe_events WHERE id = ${id}`)).toHaveLength(1);
  });

  it('client_reference_id is not read: a garbage one on our session still pays the record it was made for', async () => {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    const session = paidSession(p, { client_reference_id: 'not-a-uuid' });
    expect((await sendEvent(t, 'checkout.session.completed', session)).status).toBe(200);
    expect((await siteRow(t, p.siteId))?.status).toBe('queued');
    expect(refundsFor(session.payment_intent)).toEqual([]);
  });

  it('a failing refund answers 500 and leaves the event unrecorded, so Stripe retries', async () => {
    const failing = recordingPayments();
    failing.refund = async () => {
      throw new Error('stripe down');
    };
    const t2 = await createTestApp({ overrides: { payments: failing, queue: recordingQueue() } });
    try {
      const m = await t2.member('none');
      const p = await submitUnpaid(t2, m.key);
      await queryRows(t2.deps.db, sql`DELETE FROM pending_submissions WHERE id = ${p.siteId} RETURNING id`);
      const id = eventId();
      const body = buildStripeEvent('checkout.session.completed', paidSession(p), { id });
      expect((await postEvent(t2, body)).status).toBe(500);
      const rows = await queryRows(t2.deps.db, sql`SELECT 1 FROM stripe_events WHERE id = ${id}`);
      expect(rows).toHaveLength(0);
    } finally {
      await t2.close();
    }
  });
});

describe('no slow work inline', () => {
  it('answers before the crawl enqueue finishes (it is deferred)', async () => {
    let enqueued = 0;
    const stuck = { kind: 'local' as const, enqueue: () => ((enqueued += 1), new Promise<void>(() => {})) };
    const t2 = await createTestApp({ overrides: { payments: recordingPayments(), queue: stuck } });
    try {
      const m = await t2.member('none');
      const p = await submitUnpaid(t2, m.key);
      const res = await sendEvent(t2, 'checkout.session.completed', paidSession(p));
      expect(res.status).toBe(200);
      expect(enqueued).toBe(1);
      expect((await siteRow(t2, p.siteId))?.status).toBe('queued');
    } finally {
      await t2.close();
    }
  });
});
