// Checkout webhook scenarios shared by the suites on PGlite, node-postgres and neon-http: each takes the app
// and the recording adapters it was built with, so one copy of the assertions runs on every driver.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { eventFixture as buildStripeEvent } from './stripe-fixtures';
import type { TestApp } from '../test-app';
import {
  eventId,
  expiredSession,
  historyCount,
  paidSession,
  pendingRow,
  postEvent,
  type WebhookScenarioContext,
  sendEvent,
  siteRow,
  submitUnpaid,
  uniqueUrl,
} from './payments-fixture';

export type { WebhookScenarioContext };

/** The refunds recorded for one PaymentIntent. */
export const refundsFor = (payments: WebhookScenarioContext['payments'], paymentIntent: unknown) =>
  payments.calls.filter((c) => c.method === 'refund' && c.args[0] === paymentIntent);

/** GET /api/v1/sites/{id} as `key`, expecting 200. */
export async function readRecord(t: TestApp, key: string, siteId: string): Promise<Record<string, unknown>> {
  const res = await t.request(`/api/v1/sites/${siteId}`, { key });
  expect(res.status).toBe(200);
  return res.json() as Promise<Record<string, unknown>>;
}

/** checkout.session.completed (paid) promotes the 402 record: same site_id, one history row, crawl enqueued. */
export async function paidCheckoutQueuesPending({ t, queue }: WebhookScenarioContext): Promise<void> {
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key);
  const session = paidSession(p);
  const res = await sendEvent(t, 'checkout.session.completed', session);
  expect(res.status).toBe(200);
  expect(await siteRow(t, p.siteId)).toMatchObject({
    status: 'queued',
    via: 'payment',
    plan: 'basic',
    is_feature: false,
    is_sponsor: false,
    stripe_checkout_session_id: p.sessionId,
    stripe_payment_intent_id: session.payment_intent,
  });
  expect(await pendingRow(t, p.siteId)).toBeUndefined();
  expect(await historyCount(t, p.siteId)).toBe(1);
  expect(await readRecord(t, m.key, p.siteId)).toEqual({
    site_id: p.siteId,
    name: p.name,
    url: p.url,
    status: 'queued',
    is_feature: false,
    is_sponsor: false,
    submitted_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/),
    // The paid submission's history starts with its pending_payment step (docs/submission-progress.md).
    history: [
      { status: 'pending_payment', at: expect.any(String) },
      { status: 'queued', at: expect.any(String) },
    ],
    queue: { stage: 'crawl', position: expect.any(Number) },
  });
  expect(queue.jobs).toContainEqual({ step: 'crawl', message: { site_id: p.siteId } });
}

/** One event delivered 5 times at once: all 200, one transition, one crawl job, no refund. */
export async function sameEventFiveTimesAtOnce({ t, payments, queue }: WebhookScenarioContext): Promise<void> {
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key);
  const session = paidSession(p);
  const body = buildStripeEvent('checkout.session.completed', session, { id: eventId() });
  const responses = await Promise.all(Array.from({ length: 5 }, () => postEvent(t, body)));
  expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  expect((await siteRow(t, p.siteId))?.status).toBe('queued');
  expect(await historyCount(t, p.siteId)).toBe(1);
  expect(queue.jobs.filter((j) => j.message.site_id === p.siteId)).toHaveLength(1);
  expect(refundsFor(payments, session.payment_intent)).toEqual([]);
}

/** Two different paid sessions (old and new link) for one record at once: one applied, the other refunded. */
export async function twoPaidSessionsRace({ t, payments }: WebhookScenarioContext): Promise<void> {
  const m = await t.member('none');
  const first = await submitUnpaid(t, m.key);
  const second = {
    ...first,
    sessionId: (await submitUnpaid(t, m.key, { name: first.name, url: first.url })).sessionId,
  };
  const a = paidSession(first);
  const b = paidSession(second);
  const statuses = (
    await Promise.all([
      postEvent(t, buildStripeEvent('checkout.session.completed', a)),
      postEvent(t, buildStripeEvent('checkout.session.completed', b)),
    ])
  ).map((r) => r.status);
  expect(statuses).toEqual([200, 200]);
  expect(await historyCount(t, first.siteId)).toBe(1);
  const refunded = payments.calls.filter((c) => c.method === 'refund').map((c) => c.args[0]);
  const applied = (await siteRow(t, first.siteId))?.stripe_payment_intent_id;
  expect([a.payment_intent, b.payment_intent]).toContain(applied);
  expect(refunded.filter((pi) => pi === a.payment_intent || pi === b.payment_intent)).toEqual([
    applied === a.payment_intent ? b.payment_intent : a.payment_intent,
  ]);
}

/** The URL was queued by another member before the payment landed: refund, record reads rejected with a reason. */
export async function urlTakenBeforePaymentIsRefunded({ t, payments }: WebhookScenarioContext): Promise<void> {
  const payer = await t.member('none');
  const url = uniqueUrl();
  const p = await submitUnpaid(t, payer.key, { url });
  const other = await t.member('member');
  const queued = await t.request('/api/v1/submit-site', {
    method: 'POST',
    key: other.key,
    json: { name: 'Someone Else Tool', url },
  });
  expect(queued.status).toBe(201);
  const session = paidSession(p);
  const res = await sendEvent(t, 'checkout.session.completed', session);
  expect(res.status).toBe(200);
  expect(refundsFor(payments, session.payment_intent)).toEqual([
    { method: 'refund', args: [session.payment_intent, expect.stringContaining('refunded')] },
  ]);
  expect(await siteRow(t, p.siteId)).toBeUndefined();
  expect(await pendingRow(t, p.siteId)).toMatchObject({ state: 'refunded' });
  expect(await readRecord(t, payer.key, p.siteId)).toEqual({
    site_id: p.siteId,
    name: p.name,
    url: p.url,
    status: 'rejected',
    is_feature: false,
    is_sponsor: false,
    submitted_at: expect.any(String),
    rejection_reason: expect.stringContaining('URL or name'),
    history: [{ status: 'pending_payment', at: expect.any(String) }],
  });
  const [event] = await queryRows<{ summary: string }>(
    t.deps.db,
    sql`SELECT summary FROM stripe_events WHERE summary LIKE ${`%${p.siteId}%`}`,
  );
  expect(event?.summary).toContain('refunded');
}

/** checkout.session.expired of the current session marks the record expired; it stays readable as pending. */
export async function expiredSessionMarksPending({ t }: WebhookScenarioContext): Promise<void> {
  const m = await t.member('none');
  const p = await submitUnpaid(t, m.key);
  expect((await sendEvent(t, 'checkout.session.expired', expiredSession(p))).status).toBe(200);
  expect((await pendingRow(t, p.siteId))?.state).toBe('expired');
  expect((await readRecord(t, m.key, p.siteId)).status).toBe('pending_payment');
}

/**
 * A member's submit and the payment for the same URL land at once (5 rounds): exactly one site holds the URL;
 * either the member got 409 and the payment was applied, or the member got 201 and the payment was refunded.
 */
export async function paymentRacesMemberSubmit({ t, payments }: WebhookScenarioContext): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const payer = await t.member('none');
    const url = uniqueUrl();
    const p = await submitUnpaid(t, payer.key, { url });
    const other = await t.member('member');
    const session = paidSession(p);
    const [submitted, delivered] = await Promise.all([
      t.request('/api/v1/submit-site', { method: 'POST', key: other.key, json: { name: `Racer ${p.name}`, url } }),
      sendEvent(t, 'checkout.session.completed', session),
    ]);
    expect(delivered.status).toBe(200);
    expect([201, 409]).toContain(submitted.status);
    const [holders] = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM sites WHERE canonical_url = (SELECT canonical_url FROM sites WHERE id = ${p.siteId}
          UNION ALL SELECT canonical_url FROM pending_submissions WHERE id = ${p.siteId} LIMIT 1)`,
    );
    expect(Number(holders?.n)).toBe(1);
    if (submitted.status === 201) {
      expect(refundsFor(payments, session.payment_intent)).toHaveLength(1);
      expect(await siteRow(t, p.siteId)).toBeUndefined();
      expect((await readRecord(t, payer.key, p.siteId)).status).toBe('rejected');
    } else {
      expect(refundsFor(payments, session.payment_intent)).toEqual([]);
      expect((await siteRow(t, p.siteId))?.status).toBe('queued');
    }
  }
}

/** completed and async_payment_succeeded of one session, 3 of each at once (5 rounds): one transition, no refund. */
export async function completedAndAsyncSucceededAtOnce({ t, payments }: WebhookScenarioContext): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const m = await t.member('none');
    const p = await submitUnpaid(t, m.key);
    const session = paidSession(p);
    const statuses = (
      await Promise.all([
        ...Array.from({ length: 3 }, () =>
          postEvent(t, buildStripeEvent('checkout.session.completed', session, { id: eventId() })),
        ),
        ...Array.from({ length: 3 }, () =>
          postEvent(t, buildStripeEvent('checkout.session.async_payment_succeeded', session, { id: eventId() })),
        ),
      ])
    ).map((r) => r.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await historyCount(t, p.siteId)).toBe(1);
    expect(refundsFor(payments, session.payment_intent)).toEqual([]);
  }
}
