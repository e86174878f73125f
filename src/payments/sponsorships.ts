import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { StripeEventEnvelope } from './stripe-event';

/**
 * The recorded summary of a sponsorship subscription deleted before its checkout completion was applied
 * (out-of-order delivery): promotePaidSubmission looks for it, so the site is queued without the sponsor slot.
 */
export const earlyDeletionSummary = (subscriptionId: string) => `sponsor subscription ${subscriptionId} deleted before its site was queued`;

/** Subscription states in which a sponsored listing keeps its sponsor slot. */
export const SPONSOR_ACTIVE_STATUSES = new Set(['active', 'trialing']);

/**
 * Sets or clears is_sponsor on the site paid by this subscription. Ordered by the event's own `created`
 * against sites.sponsor_updated_at, never by arrival: an older event changes nothing, and on a same-second
 * tie clearing wins (a deletion is final). Undefined when no site belongs to the subscription.
 */
export async function applySponsorship(
  deps: Deps,
  event: StripeEventEnvelope,
  subscriptionId: string,
  active: boolean,
): Promise<string | undefined> {
  const [row] = await queryRows<{ site_id: string | null; updated: string | null }>(
    deps.db,
    sql`WITH site AS (
          SELECT id FROM sites WHERE stripe_subscription_id = ${subscriptionId} LIMIT 1
        ), upd AS (
          UPDATE sites s SET is_sponsor = ${active}, sponsor_updated_at = to_timestamp(${event.created})
          FROM site
          WHERE s.id = site.id
            AND (s.sponsor_updated_at IS NULL OR s.sponsor_updated_at < to_timestamp(${event.created})
                 OR (s.sponsor_updated_at = to_timestamp(${event.created}) AND NOT ${active}))
          RETURNING s.id
        )
        SELECT (SELECT id FROM site) AS site_id, (SELECT id FROM upd) AS updated`,
  );
  if (!row?.site_id) return undefined;
  if (!row.updated) return `sponsorship of site ${row.site_id}: a newer state is kept, event ignored`;
  return `sponsorship of site ${row.site_id}: is_sponsor ${active}`;
}
