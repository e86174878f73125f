import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { dailyLimitFor, isMembershipActive, quotaResetsAt, utcDay, type Membership } from './memberships';

/** What an account's membership covers today: read before a person picks a plan on /submit. */
export interface QuotaStanding {
  email: string;
  membership: Membership;
  /** The membership counts now (memberships.ts isMembershipActive). */
  active: boolean;
  usedToday: number;
  /** Today's quota of the tier (0 without a membership). */
  dailyLimit: number;
  /** The next UTC midnight, when usedToday starts over. */
  resetsAt: Date;
}

/**
 * The account's tier and today's quota use in one statement. Only a reading for the page: the submit itself
 * decides again atomically (src/submissions/rules.ts, queue-member-submission.ts), so a race can only make the
 * page's promise of "included" end at the checkout, never a submission queued without payment or quota.
 */
export async function readQuotaStanding(deps: Deps, accountId: string): Promise<QuotaStanding | undefined> {
  const now = deps.now();
  const [row] = await queryRows<{
    email: string;
    tier: Membership['tier'];
    membership_status: string;
    period_end: string | null;
    used: number | string | null;
  }>(
    deps.db,
    sql`SELECT a.email, a.tier, a.membership_status, ${isoTimestamp(sql`a.membership_period_end`)} AS period_end, u.used
        FROM accounts a LEFT JOIN quota_usage u ON u.account_id = a.id AND u.day = ${utcDay(now)}::date
        WHERE a.id = ${accountId}`,
  );
  if (!row) return undefined;
  const membership: Membership = {
    tier: row.tier,
    status: row.membership_status,
    periodEnd: row.period_end ? new Date(row.period_end) : null,
  };
  return {
    email: row.email,
    membership,
    active: isMembershipActive(membership, now),
    usedToday: Number(row.used ?? 0),
    dailyLimit: dailyLimitFor(membership.tier, deps.config.dailyLimits),
    resetsAt: quotaResetsAt(now),
  };
}
