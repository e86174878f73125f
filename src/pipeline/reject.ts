import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { siteRecordColumns, toSiteRecord, type SiteRow } from '../submissions/records';
import type { SiteRecord } from '../submissions/record-schemas';
import { notifyRejected } from './notify';
import { decisionApplies } from './decision-conditions';

/**
 * Whether the rejection owes a refund (docs/payments.md "Refund on rejection"): REFUND_ON_REJECTION, a submission
 * that was paid for (a payment intent or a sponsorship subscription of ours) and never went live. Read in the
 * rejecting statement on the row as it was, so a takedown of a live tool never refunds.
 */
const paidNeverLive = sql`s.via = 'payment' AND s.published_at IS NULL
  AND (s.stripe_payment_intent_id IS NOT NULL OR s.stripe_subscription_id IS NOT NULL)`;

/**
 * Rejects a pending_review site, or takes a live one down, in one conditional statement; the reason
 * (optional) is stored and mailed. The slug is kept so a republish gets the same public address.
 * A paid submission rejected before it went live is marked refund 'due' in the same statement and handed to the
 * refund job, which refunds through the payments adapter and then sends the mail with the refund's id
 * (src/payments/refund-rejected.ts); any other rejection is mailed here. Returns undefined when the site was in
 * neither state.
 */
export async function rejectSite(deps: Deps, siteId: string, reason: string | null): Promise<SiteRecord | undefined> {
  const note = reason ? `rejected by an editor: ${reason}` : 'rejected by an editor';
  const [row] = await queryRows<
    SiteRow & { notify_email: string | null; previous_status: string; account_id: string; paid_never_live: boolean }
  >(
    deps.db,
    sql`WITH before AS (SELECT status FROM sites WHERE id = ${siteId}::uuid),
        u AS (
          UPDATE sites s SET status = 'rejected', review_reason = ${reason}::text, reviewed_at = now(), status_note = ${note}::text,
            refund_state = CASE WHEN ${deps.config.refundOnRejection}::boolean AND ${paidNeverLive} THEN 'due' ELSE s.refund_state END
          WHERE s.id = ${siteId}::uuid AND ${decisionApplies.reject}
          RETURNING s.*, (${paidNeverLive}) AS paid_never_live
        )
        SELECT ${siteRecordColumns}, COALESCE(s.email, a.email) AS notify_email, (SELECT status FROM before) AS previous_status,
          s.account_id, s.paid_never_live
        FROM u s JOIN accounts a ON a.id = s.account_id`,
  );
  if (!row) return undefined;
  if (row.refund_state === 'due') {
    // Off the response path; a lost publish is found by the sweep (refund_state 'due'). Duplicates are harmless.
    deps.defer(deps.queue.enqueue('refund', { site_id: siteId }, { deduplicationId: `refund-${siteId}` }));
  } else {
    const wasLive = row.previous_status === 'live';
    await notifyRejected(deps, {
      accountId: row.account_id,
      siteId,
      to: row.notify_email,
      name: row.name,
      url: row.url,
      reason,
      wasLive,
      money:
        !wasLive && row.paid_never_live && !deps.config.refundOnRejection ? { kind: 'not_refunded' } : { kind: 'none' },
    });
  }
  return toSiteRecord(row);
}
