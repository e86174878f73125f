import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { isUniqueViolation, queryRows } from '../db/client';
import { isUuid } from '../submissions/get';
import type { Tier } from '../submissions/rules';
import type { MembershipChange } from './membership-rules';
import type { CheckoutSessionView, StripeEventEnvelope } from './stripe-event';

interface Target {
  customerId?: string;
  /** account_id from the subscription's or session's metadata (set by the membership checkout). */
  accountId?: string;
  subscriptionId?: string;
  /** Only a change to the subscription the account tracks (or none yet): deleting an old one must not end a new one. */
  sameSubscriptionOnly?: boolean;
}

/**
 * Applies a Stripe-side membership change, found by stripe_customer_id, else by the account id our own
 * membership checkout put into the session/subscription metadata (set server-side, so it can be trusted). Newer wins: an operator change or Stripe event newer than this event's `created`
 * is kept. Same-second Stripe events never revive a cancelled membership. One statement.
 */
export async function applyMembershipChange(deps: Deps, event: StripeEventEnvelope, target: Target, change: MembershipChange): Promise<string> {
  const accountId = target.accountId && isUuid(target.accountId) ? target.accountId : null;
  const end = change.periodEnd?.toISOString() ?? null;
  const [row] = await queryRows<{ account_id: string | null; updated: string | null }>(
    deps.db,
    sql`WITH acct AS (
          SELECT a.id FROM accounts a
          WHERE a.stripe_customer_id = ${target.customerId ?? null}::text OR a.id = ${accountId}::uuid
          ORDER BY (a.stripe_customer_id IS NOT DISTINCT FROM ${target.customerId ?? null}::text) DESC LIMIT 1
        ), upd AS (
          UPDATE accounts a SET tier = ${change.tier}, membership_status = ${change.status},
            membership_period_end = CASE ${change.periodMode}::text
              WHEN 'keep' THEN coalesce(a.membership_period_end, ${end}::timestamptz)
              WHEN 'extend' THEN greatest(a.membership_period_end, ${end}::timestamptz)
              ELSE ${end}::timestamptz END,
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
  if (!row?.account_id) return `membership: no account for customer ${target.customerId ?? '?'}: ignored`;
  if (!row.updated) return `membership of ${row.account_id}: a newer change is kept, event ignored`;
  return `membership of ${row.account_id}: ${change.tier} ${change.status}${end ? ` until ${end}` : ''}`;
}

/**
 * A completed membership checkout (client_reference_id = account id): links the Stripe customer and
 * subscription to the account and starts the tier named in the metadata; the subscription events that
 * follow set the period end (or end it), newer-wins.
 */
export async function linkMembershipCheckout(deps: Deps, event: StripeEventEnvelope, session: CheckoutSessionView): Promise<string> {
  const accountId = session.clientReferenceId ?? session.metadata.account_id;
  if (!accountId || !isUuid(accountId)) return `membership checkout ${session.sessionId} without an account: ignored`;
  const tier = session.metadata.tier as Tier | undefined;
  try {
    return await applyMembershipChange(
      deps,
      event,
      { accountId, customerId: session.customerId, subscriptionId: session.subscriptionId },
      {
        tier: tier === 'member' || tier === 'memberFeature' ? tier : 'member',
        status: 'active',
        periodEnd: null,
        periodMode: 'keep',
      },
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    deps.log.error('stripe customer already linked to another account', { eventId: event.id, accountId });
    return `membership checkout ${session.sessionId}: customer already belongs to another account: ignored`;
  }
}
