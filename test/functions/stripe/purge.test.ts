import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { purgeExpiredPending } from '../../../src/submissions/purge';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { pendingRow, recordingQueue, submitUnpaid } from '../../helpers/stripe/payments-fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { queue: recordingQueue() } });
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;
const expireAt = (siteId: string, at: Date) =>
  queryRows(
    t.deps.db,
    sql`UPDATE pending_submissions SET expires_at = ${at.toISOString()}::timestamptz, state = 'expired' WHERE id = ${siteId} RETURNING id`,
  );

describe('purgeExpiredPending', () => {
  it('keeps an expired record readable for 30 days, then purges it', async () => {
    const m = await t.member('none');
    const recent = await submitUnpaid(t, m.key);
    const old = await submitUnpaid(t, m.key);
    const open = await submitUnpaid(t, m.key);
    const now = t.deps.now();
    await expireAt(recent.siteId, new Date(now.getTime() - 29 * DAY));
    await expireAt(old.siteId, new Date(now.getTime() - 31 * DAY));

    const detail = await t.request(`/api/v1/sites/${recent.siteId}`, { key: m.key });
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as { status: string; expires_at: string };
    expect(body.status).toBe('pending_payment');
    expect(new Date(body.expires_at).getTime()).toBeLessThan(now.getTime());

    const { purged } = await purgeExpiredPending(t.deps);
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await pendingRow(t, old.siteId)).toBeUndefined();
    expect(await pendingRow(t, recent.siteId)).toBeDefined();
    expect(await pendingRow(t, open.siteId)).toBeDefined();
    expect((await t.request(`/api/v1/sites/${old.siteId}`, { key: m.key })).status).toBe(404);
    expect((await purgeExpiredPending(t.deps)).purged).toBe(0);
  });

  it('forgets our record of sessions made over 30 days ago, except those that started a subscription', async () => {
    const m = await t.member('none');
    const [old, recent, sponsored] = [
      await submitUnpaid(t, m.key),
      await submitUnpaid(t, m.key),
      await submitUnpaid(t, m.key, { plan: 'sponsored' }),
    ];
    const age = (sessionId: string, days: number, subscriptionId: string | null = null) =>
      queryRows(
        t.deps.db,
        sql`UPDATE checkout_sessions SET created_at = ${new Date(t.deps.now().getTime() - days * DAY).toISOString()}::timestamptz,
        subscription_id = ${subscriptionId} WHERE id = ${sessionId} RETURNING id`,
      );
    await age(old.sessionId, 31);
    await age(recent.sessionId, 29);
    await age(sponsored.sessionId, 400, 'sub_still_running');
    await purgeExpiredPending(t.deps);
    const left = await queryRows<{ id: string }>(
      t.deps.db,
      sql`SELECT id FROM checkout_sessions WHERE id IN (${old.sessionId}, ${recent.sessionId}, ${sponsored.sessionId}) ORDER BY id`,
    );
    expect(left.map((r) => r.id).sort()).toEqual([recent.sessionId, sponsored.sessionId].sort());
  });
});
