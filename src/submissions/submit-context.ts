import type { ExistingListing } from './already-submitted';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import type { Membership, Tier } from '../accounts/memberships';
import type { PlanName } from '../catalog/plans';

/**
 * Everything submit needs to decide, read in one statement. The same-URL-or-name lookup is a UNION ALL of two
 * unique-index scans rather than `canonical_url = … OR normalized_name = …`, which PostgreSQL answers with a
 * BitmapOr and a heap recheck: half the execution time on the hot path of every submit (docs/bench.md).
 */
export interface SubmitContext {
  membership: Membership;
  accountEmail: string;
  usedToday: number;
  /** A site (any state) with the same canonical URL or normalised name. */
  existing?: ExistingListing;
  /** The caller's own unpaid record for this URL, if any. */
  pending?: { siteId: string; version: number; checkoutSessionId: string; plan: PlanName };
}

interface Row {
  tier: Tier;
  membership_status: string;
  membership_period_end: string | null;
  email: string;
  used_today: number | null;
  existing_id: string | null;
  existing_account_id: string | null;
  existing_slug: string | null;
  existing_same_url: boolean | null;
  pending_id: string | null;
  pending_version: number | null;
  pending_session: string | null;
  pending_plan: PlanName | null;
}

export async function readSubmitContext(
  db: Db,
  q: { accountId: string; day: string; canonicalUrl: string; normalizedName: string },
): Promise<SubmitContext | undefined> {
  const [row] = await queryRows<Row>(
    db,
    sql`SELECT a.tier, a.membership_status, ${isoTimestamp(sql`a.membership_period_end`)} AS membership_period_end,
        a.email, u.used AS used_today, e.id AS existing_id, e.account_id AS existing_account_id, e.slug AS existing_slug, e.same_url AS existing_same_url,
        p.id AS pending_id, p.version AS pending_version, p.checkout_session_id AS pending_session, p.plan AS pending_plan
      FROM accounts a
      LEFT JOIN quota_usage u ON u.account_id = a.id AND u.day = ${q.day}
      LEFT JOIN LATERAL (
        SELECT x.id, x.account_id, CASE WHEN x.status = 'live' THEN x.slug END AS slug, x.canonical_url = ${q.canonicalUrl} AS same_url FROM (
          SELECT s.id, s.account_id, s.status, s.slug, s.canonical_url FROM sites s WHERE s.canonical_url = ${q.canonicalUrl} AND s.withdrawn_at IS NULL
          UNION ALL
          SELECT s.id, s.account_id, s.status, s.slug, s.canonical_url FROM sites s WHERE s.normalized_name = ${q.normalizedName} AND s.withdrawn_at IS NULL
        ) x
        ORDER BY (x.account_id = a.id) DESC, (x.canonical_url = ${q.canonicalUrl}) DESC LIMIT 1
      ) e ON true
      LEFT JOIN pending_submissions p ON p.account_id = a.id AND p.canonical_url = ${q.canonicalUrl}
      WHERE a.id = ${q.accountId}`,
  );
  if (!row) return undefined;
  return {
    membership: {
      tier: row.tier,
      status: row.membership_status,
      periodEnd: row.membership_period_end ? new Date(row.membership_period_end) : null,
    },
    accountEmail: row.email,
    usedToday: Number(row.used_today ?? 0),
    existing: row.existing_id
      ? {
          siteId: row.existing_id,
          accountId: row.existing_account_id!,
          field: row.existing_same_url ? 'url' : 'name',
          liveSlug: row.existing_slug,
        }
      : undefined,
    pending: row.pending_id
      ? {
          siteId: row.pending_id,
          version: Number(row.pending_version),
          checkoutSessionId: row.pending_session!,
          plan: row.pending_plan!,
        }
      : undefined,
  };
}
