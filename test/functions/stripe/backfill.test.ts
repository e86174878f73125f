// drizzle/0009_checkout_sessions_backfill.sql: records made before checkout_sessions existed stay ours, so their
// payments and subscription events keep applying after the upgrade (docs/payments.md).
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { migrationsFolder } from '../../../src/db/node-clients';
import { readRecord } from '../../helpers/stripe/checkout-scenarios';
import {
  createWebhookContext,
  paidSession,
  sendEvent,
  siteRow,
  submitUnpaid,
  type WebhookScenarioContext,
} from '../../helpers/stripe/payments-fixture';
import { stripeModeEnv, subscription } from '../../helpers/stripe/subscription-objects';
import { moneyCalls } from '../../helpers/stripe/ownership-scenarios';

let ctx: WebhookScenarioContext;
beforeAll(async () => {
  ctx = await createWebhookContext({ env: stripeModeEnv() });
});
afterAll(() => ctx.t.close());

const backfill = () =>
  readFileSync(`${migrationsFolder}/0009_checkout_sessions_backfill.sql`, 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter(Boolean);

it('a pending record, a sponsored site and a Stripe membership from before the table keep working', async () => {
  const { t } = ctx;
  const m = await t.member('none');
  const pending = await submitUnpaid(t, m.key, { plan: 'featured' });
  const sponsoredPending = await submitUnpaid(t, m.key, { plan: 'sponsored' });
  const sponsoredSession = paidSession({ ...sponsoredPending, plan: 'sponsored' });
  expect((await sendEvent(t, 'checkout.session.completed', sponsoredSession)).status).toBe(200);
  const member = await t.member('none');
  await queryRows(
    t.deps.db,
    sql`UPDATE accounts SET tier = 'member', membership_status = 'active', membership_source = 'stripe',
          stripe_customer_id = 'cus_legacy_member', stripe_subscription_id = 'sub_legacy_member' WHERE id = ${member.accountId} RETURNING id`,
  );
  // As before the upgrade: no record of any of these sessions.
  await queryRows(
    t.deps.db,
    sql`DELETE FROM checkout_sessions WHERE account_id IN (${m.accountId}, ${member.accountId}) RETURNING id`,
  );

  for (const statement of backfill()) await queryRows(t.deps.db, sql.raw(statement));
  for (const statement of backfill()) await queryRows(t.deps.db, sql.raw(statement)); // idempotent

  const rows = await queryRows<{
    id: string;
    purpose: string;
    plan: string;
    mode: string;
    amount_total: string | null;
    subscription_id: string | null;
  }>(
    t.deps.db,
    sql`SELECT id, purpose, plan, mode, amount_total, subscription_id FROM checkout_sessions
        WHERE account_id IN (${m.accountId}, ${member.accountId}) ORDER BY purpose, plan`,
  );
  expect(rows).toEqual([
    {
      id: `legacy_membership_${member.accountId}`,
      purpose: 'membership',
      plan: 'member',
      mode: 'subscription',
      amount_total: null,
      subscription_id: 'sub_legacy_member',
    },
    {
      id: pending.sessionId,
      purpose: 'submission',
      plan: 'featured',
      mode: 'payment',
      amount_total: null,
      subscription_id: null,
    },
    {
      id: sponsoredPending.sessionId,
      purpose: 'submission',
      plan: 'sponsored',
      mode: 'subscription',
      amount_total: null,
      subscription_id: sponsoredSession.subscription,
    },
  ]);

  // The legacy pending record is paid (no amount to compare): queued as featured, nothing refunded.
  const calls = moneyCalls(ctx);
  expect((await sendEvent(t, 'checkout.session.completed', paidSession({ ...pending, plan: 'featured' }))).status).toBe(
    200,
  );
  expect(await siteRow(t, pending.siteId)).toMatchObject({ status: 'queued', plan: 'featured', is_feature: true });
  // The legacy sponsorship's and membership's subscriptions are still ours.
  const now = Math.floor(Date.now() / 1000);
  await sendEvent(
    t,
    'customer.subscription.deleted',
    subscription(String(sponsoredSession.subscription), { status: 'canceled', price: 'price_sponsored' }),
    { created: now + 5 },
  );
  expect((await readRecord(t, m.key, sponsoredPending.siteId)).is_sponsor).toBe(false);
  await sendEvent(
    t,
    'customer.subscription.deleted',
    subscription('sub_legacy_member', { status: 'canceled', price: 'price_member', customer: 'cus_legacy_member' }),
    { created: now + 5 },
  );
  expect(
    (await queryRows<{ tier: string }>(t.deps.db, sql`SELECT tier FROM accounts WHERE id = ${member.accountId}`))[0]
      ?.tier,
  ).toBe('none');
  expect(moneyCalls(ctx)).toBe(calls);
});
