import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { isUniqueViolation, queryRows } from '../db/client';
import type { OurSession } from './promote-paid-submission';
import { periodEndAfter, recordedTier, type MembershipChange } from './membership-rules';
import type { CheckoutSessionView, StripeEventEnvelope } from './stripe-event';

interface Target {
  /** The account our record of the session names (never the event's metadata). */
  accountId: string;
  customerId?: string;
  subscriptionId?: string;
  /** Only a change to the subscription the account tracks (or none yet): deleting an old one must not end a new one. */
  sameSubscriptionOnly?: boolean;
  /** The subscription's deletion: remembered on our session record, so a later upgrade does not cancel it again. */
  deleted?: boolean;
}

/**
 * Applies a Stripe-side membership change to the account our session record names. Newer wins: an operator
 * change or Stripe event newer than this event's `created` is kept. Same-second Stripe events never revive a
 * cancelled membership. One statement. A customer already linked to another account changes nothing.
 */
export async function applyMembershipChange(
  deps: Deps,
  event: StripeEventEnvelope,
  target: Target,
  change: MembershipChange,
): Promise<string> {
  const end = change.periodEnd?.toISOString() ?? null;
  let row: { account_id: string | null; updated: string | null } | undefined;
  try {
    [row] = await queryRows<{ account_id: string | null; updated: string | null }>(
      deps.db,
      sql`WITH acct AS (
            SELECT a.id FROM accounts a WHERE a.id = ${target.accountId}::uuid
          ), gone AS (
            UPDATE checkout_sessions SET subscription_deleted_at = coalesce(subscription_deleted_at, to_timestamp(${event.created}))
            WHERE subscription_id = ${target.subscriptionId ?? null}::text AND ${target.deleted ?? false}
            RETURNING id
          ), upd AS (
            UPDATE accounts a SET tier = ${change.tier}, membership_status = ${change.status},
              membership_period_end = ${periodEndAfter(sql`a.membership_period_end`, change)},
              membership_source = 'stripe', membership_updated_at = to_timestamp(${event.created}),
              stripe_customer_id = coalesce(a.stripe_customer_id, ${target.customerId ?? null}::text),
              stripe_subscription_id = coalesce(${target.subscriptionId ?? null}::text, a.stripe_subscription_id)
            FROM acct
            WHERE a.id = acct.id
              AND (NOT ${target.sameSubscriptionOnly ?? false} OR a.stripe_subscription_id IS NULL
                   OR a.stripe_subscription_id = ${target.subscriptionId ?? null}::text)
              AND (a.membership_updated_at IS NULL OR a.membership_updated_at < to_timestamp(${event.created})
                   OR (a.membership_updated_at = to_timestamp(${event.created}) AND a.membership_source = 'stripe'
                       AND (a.membership_status <> 'canceled' OR ${change.status} = 'canceled')))
            RETURNING a.id
          )
          SELECT (SELECT id FROM acct) AS account_id, (SELECT id FROM upd) AS updated`,
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    deps.log.error('stripe customer already linked to another account', {
      eventId: event.id,
      accountId: target.accountId,
    });
    return `membership of ${target.accountId}: customer ${target.customerId ?? '?'} already belongs to another account: ignored`;
  }
  if (!row?.account_id) return `membership: account ${target.accountId} no longer exists: ignored`;
  if (!row.updated) return `membership of ${row.account_id}: a newer change is kept, event ignored`;
  return `membership of ${row.account_id}: ${change.tier} ${change.status}${end ? ` until ${end}` : ''}`;
}

/**
 * A completed membership checkout of ours: links the Stripe customer and subscription to the account our
 * record names and starts the tier it was created for; the subscription events that follow set the period end
 * (or end it), newer-wins. Any other membership subscription of the account that our sessions started and
 * that has not ended (an upgrade from member to memberFeature is a new checkout) is then cancelled with its
 * unused time credited: nobody pays for two memberships.
 */
export async function linkMembershipCheckout(
  deps: Deps,
  event: StripeEventEnvelope,
  session: CheckoutSessionView,
  ours: OurSession,
): Promise<string> {
  const summary = await applyMembershipChange(
    deps,
    event,
    { accountId: ours.accountId, customerId: session.customerId, subscriptionId: session.subscriptionId },
    { tier: recordedTier(ours.plan), status: 'active', periodEnd: null, periodMode: 'keep' },
  );
  if (!session.subscriptionId) return summary;
  const replaced = await cancelReplacedMemberships(deps, ours.accountId, session.subscriptionId);
  return replaced.length ? `${summary}; replaced ${replaced.join(', ')} cancelled` : summary;
}

/**
 * Cancels the account's other live membership subscriptions (after the link, so their deletion events find the
 * account on the new one and change nothing) and remembers each as ended. A failed cancel throws before it is
 * remembered: the event is not recorded, and Stripe's redelivery tries again.
 */
async function cancelReplacedMemberships(deps: Deps, accountId: string, current: string): Promise<string[]> {
  const rows = await queryRows<{ subscription_id: string }>(
    deps.db,
    sql`SELECT DISTINCT subscription_id FROM checkout_sessions
        WHERE purpose = 'membership' AND account_id = ${accountId}::uuid AND subscription_id IS NOT NULL
          AND subscription_id <> ${current} AND subscription_deleted_at IS NULL`,
  );
  const replaced = rows.map((r) => r.subscription_id);
  if (replaced.length === 0) return replaced;
  for (const id of replaced) await deps.payments.cancelReplacedSubscription(id);
  await queryRows(
    deps.db,
    sql`UPDATE checkout_sessions SET subscription_deleted_at = coalesce(subscription_deleted_at, ${deps.now().toISOString()}::timestamptz)
        WHERE subscription_id = ANY (string_to_array(${replaced.join(',')}::text, ',')) RETURNING id`,
  );
  return replaced;
}
