import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { ServiceError } from '../errors';
import { isMembershipActive, type Tier } from './memberships';

/** An account's membership as billing sees it: what it has, and the Stripe objects (or local stand-ins) behind it. */
export interface MembershipBilling {
  accountId: string;
  email: string;
  tier: Tier;
  status: string;
  periodEnd: Date | null;
  active: boolean;
  /** Who set the membership last: 'stripe' (a subscription), 'operator', or null (never a member). */
  source: string | null;
  /** The account's Stripe customer (set by its first paid membership checkout): the Customer Portal opens for it. */
  customerId: string | null;
  subscriptionId: string | null;
  /** Our record of the membership session that started that subscription: its reference and when it was made. */
  ref: string | null;
  startedAt: Date | null;
}

/** A membership held through a subscription one of our membership sessions started: one that can be cancelled. */
export type SubscribedMembership = MembershipBilling & {
  tier: Exclude<Tier, 'none'>;
  customerId: string;
  subscriptionId: string;
};

/** What the local billing page cancels (functions/pages/local-checkout-event.ts builds the deletion event from it). */
export type LocalMembership = SubscribedMembership;

interface Row {
  email: string;
  tier: Tier;
  membership_status: string;
  period_end: string | null;
  membership_source: string | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  ref: string | null;
  started_at: string | null;
}

/** One statement: the account's membership, its customer and subscription, and our session record of the latter. */
export async function getMembershipBilling(deps: Deps, accountId: string): Promise<MembershipBilling> {
  const [row] = await queryRows<Row>(
    deps.db,
    sql`SELECT a.email, a.tier, a.membership_status, ${isoTimestamp(sql`a.membership_period_end`)} AS period_end,
          a.membership_source, a.stripe_customer_id, a.stripe_subscription_id, c.ref, ${isoTimestamp(sql`c.created_at`)} AS started_at
        FROM accounts a
        LEFT JOIN LATERAL (
          SELECT ref, created_at FROM checkout_sessions
          WHERE subscription_id = a.stripe_subscription_id AND purpose = 'membership' ORDER BY created_at LIMIT 1
        ) c ON true
        WHERE a.id = ${accountId}::uuid`,
  );
  if (!row) throw new ServiceError('not_found', 'No account with this id.');
  const periodEnd = row.period_end ? new Date(row.period_end) : null;
  return {
    accountId,
    email: row.email,
    tier: row.tier,
    status: row.membership_status,
    periodEnd,
    active: isMembershipActive({ tier: row.tier, status: row.membership_status, periodEnd }, deps.now()),
    source: row.membership_source,
    customerId: row.stripe_customer_id,
    subscriptionId: row.stripe_subscription_id,
    ref: row.ref,
    startedAt: row.started_at ? new Date(row.started_at) : null,
  };
}

/**
 * True when the membership is active and held through a subscription our sessions started (not set by the
 * operator): the one the billing page may cancel.
 */
export function isSubscribedMembership(b: MembershipBilling): b is SubscribedMembership {
  return (
    b.active &&
    b.source === 'stripe' &&
    b.tier !== 'none' &&
    b.customerId !== null &&
    b.subscriptionId !== null &&
    b.startedAt !== null
  );
}
