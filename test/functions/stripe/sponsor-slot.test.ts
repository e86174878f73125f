// The sponsor slot is held exactly when a membership in the same state would be active: the SQL read
// (src/directory/sponsor-slot.ts) and isMembershipActive (src/submissions/rules.ts) agree on every case.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { isMembershipActive } from '../../../src/accounts/memberships';
import { sponsorSlotHeld } from '../../../src/directory/sponsor-slot';
import { openTestDb } from '../../helpers/test-app';

let db: Awaited<ReturnType<typeof openTestDb>>;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(() => db.close());

const DAY = 86_400_000;

it('agrees with isMembershipActive for every status on both sides of the paid period end', async () => {
  const now = Date.now();
  const statuses = [
    'active',
    'trialing',
    'past_due',
    'unpaid',
    'canceled',
    'incomplete',
    'incomplete_expired',
    'paused',
  ];
  const ends = [null, new Date(now + DAY), new Date(now - DAY)];
  for (const status of statuses) {
    for (const periodEnd of ends) {
      const [row] = await queryRows<{ held: boolean }>(
        db.db,
        sql`SELECT ${sponsorSlotHeld} AS held
            FROM (SELECT true AS is_sponsor, ${status}::text AS sponsor_status, ${periodEnd?.toISOString() ?? null}::timestamptz AS sponsor_period_end) s`,
      );
      const expected = isMembershipActive({ tier: 'member', status, periodEnd }, new Date(now));
      expect(row?.held, `${status}, period end ${periodEnd?.toISOString() ?? 'none'}`).toBe(expected);
    }
  }
});

it('no slot bought, or no subscription event yet', async () => {
  const held = async (isSponsor: boolean) =>
    (
      await queryRows<{ held: boolean }>(
        db.db,
        sql`SELECT ${sponsorSlotHeld} AS held FROM (SELECT ${isSponsor}::boolean AS is_sponsor, NULL::text AS sponsor_status, NULL::timestamptz AS sponsor_period_end) s`,
      )
    )[0]?.held;
  expect(await held(false)).toBe(false);
  expect(await held(true)).toBe(true);
});
