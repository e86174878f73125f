import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import { WITHDRAWAL_REASON } from '../catalog/site-statuses';
import { getSubmission, notFound } from './get';
import type { SiteDetailRecord } from './record-schemas';

// Withdrawal by the owner (docs/pipeline.md "Withdrawal"): DELETE /api/v1/sites/{site_id}, MCP withdraw_site,
// `tooldir withdraw`, the button on the submission page. One place for the rule of which states may be withdrawn.

/**
 * Takes one of the caller's live listings down for good, in one conditional statement: `live` → `rejected` with
 * the reason "withdrawn by its owner" and withdrawn_at. The page then answers 410, every list and search drop it
 * (they read live tools only), its URL and name are free for a new submission, its slug is never given to another
 * tool, and its statistics stay readable. A sponsorship is cancelled at the end of the period already paid for.
 *
 * Repeating it is harmless: an already withdrawn listing answers the same record (200), and a sponsorship whose
 * cancellation failed the first time is asked again. Any other state is 409 invalid_state: a submission still in
 * the pipeline is not public yet, and an unpaid one simply expires.
 */
export async function withdrawSite({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: { site_id: string };
}): Promise<SiteDetailRecord> {
  if (!isUuid(input.site_id)) throw notFound();
  const [site] = await queryRows<{ id: string; status: string; withdrawn: boolean }>(
    deps.db,
    sql`WITH withdrawn AS (
          UPDATE sites SET status = 'rejected', withdrawn_at = now(), review_reason = ${WITHDRAWAL_REASON}::text,
            status_note = ${WITHDRAWAL_REASON}::text
          WHERE id = ${input.site_id}::uuid AND account_id = ${actor.accountId}::uuid AND status = 'live'
          RETURNING id
        )
        SELECT s.id, CASE WHEN w.id IS NULL THEN s.status ELSE 'rejected' END AS status,
          (w.id IS NOT NULL OR s.withdrawn_at IS NOT NULL) AS withdrawn
        FROM sites s LEFT JOIN withdrawn w ON w.id = s.id
        WHERE s.id = ${input.site_id}::uuid AND s.account_id = ${actor.accountId}::uuid`,
  );
  if (!site) throw await unpaidOrUnknown(deps, actor, input.site_id);
  // The statement's own read predates a concurrent withdrawal it waited for: read again before refusing.
  if (!site.withdrawn && !(await withdrawnMeanwhile(deps, site.id))) throw notWithdrawable(site.status);
  await endSponsorship(deps, site.id);
  return (await getSubmission({ deps, actor, input: { siteId: site.id } })) as SiteDetailRecord;
}

/**
 * Asks the payment provider to end a withdrawn listing's sponsorship when the period already paid for ends (no
 * refund, no renewal), then remembers that it asked, so it asks once. A failure is logged and leaves the
 * withdrawal in place: the owner's next DELETE (or the button) asks again.
 */
async function endSponsorship(deps: Deps, siteId: string): Promise<void> {
  const [due] = await queryRows<{ subscription_id: string }>(
    deps.db,
    sql`SELECT stripe_subscription_id AS subscription_id FROM sites
        WHERE id = ${siteId}::uuid AND withdrawn_at IS NOT NULL AND stripe_subscription_id IS NOT NULL
          AND sponsor_cancel_requested_at IS NULL AND sponsor_status IS DISTINCT FROM 'canceled'`,
  );
  if (!due) return;
  try {
    await deps.payments.cancelSubscriptionAtPeriodEnd(due.subscription_id);
  } catch (error) {
    deps.log.warn('withdrawal: the sponsorship could not be cancelled yet', { site_id: siteId, err: String(error) });
    return;
  }
  await queryRows(
    deps.db,
    sql`UPDATE sites SET sponsor_cancel_requested_at = now() WHERE id = ${siteId}::uuid AND sponsor_cancel_requested_at IS NULL`,
  );
}

async function withdrawnMeanwhile(deps: Deps, siteId: string): Promise<boolean> {
  const [row] = await queryRows<{ withdrawn: boolean }>(
    deps.db,
    sql`SELECT withdrawn_at IS NOT NULL AS withdrawn FROM sites WHERE id = ${siteId}::uuid`,
  );
  return Boolean(row?.withdrawn);
}

/** Words for each state a withdrawal refuses, as a maker reads them. */
const REFUSALS: Record<string, string> = {
  queued: 'it is still waiting to be crawled and is not listed yet',
  crawling: 'it is being crawled and is not listed yet',
  pending_review: 'it is waiting for review and is not listed yet',
  crawl_failed: 'its crawl failed, so it was never listed',
  rejected: 'it was rejected by an editor and is not listed',
  pending_payment: 'it is not paid for, so it was never listed; its checkout link simply expires',
  refunded: 'its payment was refunded, so it was never listed',
};

function notWithdrawable(status: string, words = status): ServiceError {
  const why = REFUSALS[words] ?? `it is ${status}`;
  return new ServiceError(
    'invalid_state',
    `Only a live listing can be withdrawn; this submission is ${status}: ${why}.`,
  );
}

/** An unpaid submission is not a site yet: saying so is clearer than a 404. */
async function unpaidOrUnknown(deps: Deps, actor: Actor, siteId: string): Promise<ServiceError> {
  const [pending] = await queryRows<{ state: string }>(
    deps.db,
    sql`SELECT state FROM pending_submissions WHERE id = ${siteId}::uuid AND account_id = ${actor.accountId}::uuid`,
  );
  if (!pending) return notFound();
  return pending.state === 'refunded' ? notWithdrawable('rejected', 'refunded') : notWithdrawable('pending_payment');
}
