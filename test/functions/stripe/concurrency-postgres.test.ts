// True concurrency on a real PostgreSQL server (PGlite serialises statements): the one-statement promotion
// must still make exactly one transition when deliveries race on separate connections.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { findPostgresBinaries } from '../../helpers/services/postgres';
import { usePostgresTestApp } from '../../helpers/services/postgres-test-app';
import { requireService } from '../../helpers/services/require-service';
import { uniqueName, uniqueUrl } from '../../helpers/test-app';
import { eventFixture as buildStripeEvent } from '../../helpers/stripe/stripe-fixtures';
import {
  completedAndAsyncSucceededAtOnce,
  paymentRacesMemberSubmit,
  twoPaidSessionsRace,
} from '../../helpers/stripe/checkout-scenarios';
import {
  currentSession,
  eventId,
  historyCount,
  paidSession,
  postEvent,
  recordingLog,
  recordingPayments,
  recordingQueue,
  siteRow,
  submitUnpaid,
} from '../../helpers/stripe/payments-fixture';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('webhook deliveries racing on a real PostgreSQL', () => {
  const payments = recordingPayments();
  const queue = recordingQueue();
  const log = recordingLog();
  const pg = usePostgresTestApp({ overrides: { payments, queue, log } });

  it('the same event 5 times at once: one site, one history row, all 2xx', async () => {
    for (let round = 0; round < 5; round++) {
      const m = await pg.t.member('none');
      const p = await submitUnpaid(pg.t, m.key);
      const body = buildStripeEvent('checkout.session.completed', paidSession(p), { id: eventId() });
      const statuses = (await Promise.all(Array.from({ length: 5 }, () => postEvent(pg.t, body)))).map((r) => r.status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect((await siteRow(pg.t, p.siteId))?.status).toBe('queued');
      expect(await historyCount(pg.t, p.siteId)).toBe(1);
    }
  });

  it('completed and async_payment_succeeded of one session at once: one transition, no refund', () =>
    completedAndAsyncSucceededAtOnce({ t: pg.t, payments, queue, log }));

  it('re-submits expire every replaced session but never the current one, also when they race', async () => {
    const m = await pg.t.member('none');
    const first = await submitUnpaid(pg.t, m.key);
    const second = await submitUnpaid(pg.t, m.key, { name: first.name, url: first.url });
    expect(payments.calls).toContainEqual({ method: 'expireCheckout', args: [first.sessionId] });
    await Promise.all([
      submitUnpaid(pg.t, m.key, { name: first.name, url: first.url, plan: 'featured' }),
      submitUnpaid(pg.t, m.key, { name: first.name, url: first.url, plan: 'basic' }),
    ]);
    const current = await currentSession(pg.t, first.siteId);
    const made = payments.calls
      .filter((c) => c.method === 'createCheckout' && (c.args[0] as { siteId: string }).siteId === first.siteId)
      .map((c) => c.result);
    const expired = new Set(payments.calls.filter((c) => c.method === 'expireCheckout').map((c) => c.args[0]));
    expect(expired.has(current)).toBe(false);
    for (const session of made)
      if (session !== current) expect(expired.has(session), `${session} left payable`).toBe(true);
    expect(made).toContain(second.sessionId);
  });

  it('first submits of one new unpaid URL racing: one record, one site_id for all, every other link expired', async () => {
    for (let round = 0; round < 3; round++) {
      const m = await pg.t.member('none');
      const json = { name: uniqueName('Race'), url: uniqueUrl('race') };
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => pg.t.request('/api/v1/submit-site', { method: 'POST', key: m.key, json })),
      );
      expect(responses.map((r) => r.status)).toEqual([402, 402, 402, 402, 402]);
      const ids = new Set(
        await Promise.all(responses.map(async (r) => ((await r.json()) as { site_id: string }).site_id)),
      );
      expect(ids.size).toBe(1);
      const [siteId] = [...ids];
      const [count] = await queryRows<{ n: number | string }>(
        pg.t.deps.db,
        sql`SELECT count(*) AS n FROM pending_submissions WHERE account_id = ${m.accountId}`,
      );
      expect(Number(count?.n)).toBe(1);
      const current = await currentSession(pg.t, siteId!);
      const made = payments.calls
        .filter((c) => c.method === 'createCheckout' && (c.args[0] as { url: string }).url === new URL(json.url).href)
        .map((c) => c.result);
      const expired = new Set(payments.calls.filter((c) => c.method === 'expireCheckout').map((c) => c.args[0]));
      expect(made.length).toBeGreaterThanOrEqual(5);
      expect(expired.has(current)).toBe(false);
      for (const session of made)
        if (session !== current) expect(expired.has(session), `${session} left payable`).toBe(true);
    }
  });

  it('two different paid sessions for one record at once: one applied, the other refunded', () =>
    twoPaidSessionsRace({ t: pg.t, payments, queue, log }));
  it('a member submit and the payment for the same URL at once: one site holds it, the loser is refused or refunded', () =>
    paymentRacesMemberSubmit({ t: pg.t, payments, queue, log }));
});
