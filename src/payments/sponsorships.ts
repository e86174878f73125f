import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { periodEndAfter, type PaidPeriodChange } from './membership-rules';
import type { StripeEventEnvelope } from './stripe-event';

/**
 * Keeps the sponsorship of the site paid by this subscription in step with it, exactly like a membership: the
 * status and the period already paid for are stored with the same rule (src/payments/membership-rules.ts), and
 * src/directory/sponsor-slot.ts decides from them whether the slot is held (a past_due one until that period
 * ends). Ordered by the event's own `created` against sites.sponsor_updated_at, never by arrival: an older
 * event changes nothing, and on a same-second tie an ended sponsorship stays ended. `deleted` (the
 * subscription's deletion event) is also remembered on our session record, whether or not its site is queued
 * yet: a deletion that overtook the payment makes the promotion queue the site without the sponsor slot.
 * Undefined when no site belongs to the subscription (yet).
 */
export async function applySponsorship(
  deps: Deps,
  event: StripeEventEnvelope,
  subscriptionId: string,
  change: PaidPeriodChange,
  options: { deleted: boolean },
): Promise<string | undefined> {
  const holds = !change.ended;
  const [row] = await queryRows<{ site_id: string | null; updated: string | null }>(
    deps.db,
    sql`WITH deleted AS (
          UPDATE checkout_sessions SET subscription_deleted_at = coalesce(subscription_deleted_at, to_timestamp(${event.created}))
          WHERE subscription_id = ${subscriptionId} AND ${options.deleted}
          RETURNING id
        ), site AS (
          SELECT id FROM sites WHERE stripe_subscription_id = ${subscriptionId} LIMIT 1
        ), upd AS (
          UPDATE sites s SET is_sponsor = ${holds}, sponsor_status = ${change.status},
            sponsor_period_end = ${periodEndAfter(sql`s.sponsor_period_end`, change)},
            sponsor_updated_at = to_timestamp(${event.created})
          FROM site
          WHERE s.id = site.id
            AND (s.sponsor_updated_at IS NULL OR s.sponsor_updated_at < to_timestamp(${event.created})
                 OR (s.sponsor_updated_at = to_timestamp(${event.created}) AND (s.is_sponsor OR NOT ${holds})))
          RETURNING s.id
        )
        SELECT (SELECT id FROM site) AS site_id, (SELECT id FROM upd) AS updated`,
  );
  if (!row?.site_id) return undefined;
  if (!row.updated) return `sponsorship of site ${row.site_id}: a newer state is kept, event ignored`;
  return `sponsorship of site ${row.site_id}: ${holds ? change.status : 'ended'}`;
}
