import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { isUniqueViolation, queryRows } from '../db/client';
import { planNames, type PlanName } from './plans';
import { dispatchCrawl } from './dispatch-crawl';
import { earlyDeletionSummary } from '../payments/sponsorships';

/** A completed payment as the webhook knows it. */
export interface PaidCheckout {
  eventId: string;
  eventType: string;
  /** Event creation time (seconds): stamps sponsor_updated_at so older subscription events cannot undo it. */
  eventCreated: number;
  siteId: string;
  sessionId: string;
  paymentIntentId?: string;
  subscriptionId?: string;
  /** The plan the paid session was made for (its metadata); the record's current plan when absent. */
  paidPlan?: string;
}

/** Why a payment could not be applied: each of these is refunded by the caller. */
export type UnappliedReason = 'taken' | 'gone' | 'already_paid' | 'refunded_record';

export type PromoteOutcome =
  | { kind: 'promoted'; siteId: string; plan: PlanName }
  /** This event id was recorded before: nothing changed. */
  | { kind: 'duplicate' }
  /** The site was already queued by this same session (completed, then async_payment_succeeded). */
  | { kind: 'already_applied' }
  | { kind: 'unapplied'; reason: UnappliedReason };

interface Row {
  had_target: boolean;
  had_applied: boolean;
  recorded: number;
  promoted_plan: PlanName | null;
  pending_state: string | null;
  site_exists: boolean;
}

const knownPlan = (plan: string | undefined): PlanName | null =>
  plan && (planNames as readonly string[]).includes(plan) ? (plan as PlanName) : null;

/**
 * Promotes a paid pending record to a `queued` site (same site_id, via payment) in ONE statement that also
 * records the Stripe event id: the event insert gates the delete, the delete feeds the insert. Duplicate or
 * concurrent deliveries find the event id taken (or the pending row gone) and change nothing. A session that
 * is not the record's current one is honoured while the record is still pending (open or expired). A URL or
 * name taken meanwhile raises a unique violation that rolls the whole statement back: 'unapplied', 'taken'.
 */
export async function promotePaidSubmission(deps: Deps, paid: PaidCheckout): Promise<PromoteOutcome> {
  const plan = knownPlan(paid.paidPlan);
  let row: Row | undefined;
  try {
    [row] = await queryRows<Row>(
      deps.db,
      sql`WITH target AS (
          SELECT p.id FROM pending_submissions p WHERE p.id = ${paid.siteId}::uuid AND p.state IN ('open', 'expired')
        ), applied AS (
          SELECT s.id FROM sites s WHERE s.id = ${paid.siteId}::uuid AND s.stripe_checkout_session_id = ${paid.sessionId}
        ), ev AS (
          INSERT INTO stripe_events (id, type, summary)
          SELECT ${paid.eventId}, ${paid.eventType}, ${`payment for ${paid.siteId} (${paid.sessionId})`}
          WHERE EXISTS (SELECT 1 FROM target) OR EXISTS (SELECT 1 FROM applied)
          ON CONFLICT (id) DO NOTHING
          RETURNING id
        ), paid AS (
          DELETE FROM pending_submissions p
          WHERE p.id = ${paid.siteId}::uuid AND p.state IN ('open', 'expired')
            AND EXISTS (SELECT 1 FROM ev) AND NOT EXISTS (SELECT 1 FROM applied)
          RETURNING p.*
        ), site AS (
          INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, email,
            is_feature, is_sponsor, submitted_at, status_note, stripe_checkout_session_id, stripe_payment_intent_id,
            stripe_subscription_id, sponsor_updated_at)
          SELECT y.id, y.account_id, y.name, y.url, y.canonical_url, y.normalized_name, 'queued', 'payment', y.final_plan,
            y.email, y.final_plan = 'featured',
            y.final_plan IN ('sponsored', 'pro') AND NOT EXISTS (SELECT 1 FROM stripe_events e
              WHERE e.type = 'customer.subscription.deleted' AND e.summary = ${earlyDeletionSummary(paid.subscriptionId ?? '')}),
            y.submitted_at, 'paid',
            ${paid.sessionId}::text, ${paid.paymentIntentId ?? null}::text, ${paid.subscriptionId ?? null}::text,
            CASE WHEN y.final_plan IN ('sponsored', 'pro') THEN to_timestamp(${paid.eventCreated}) END
          FROM (SELECT paid.*, coalesce(${plan}::text, paid.plan) AS final_plan FROM paid) y
          RETURNING plan
        )
        SELECT EXISTS (SELECT 1 FROM target) AS had_target, EXISTS (SELECT 1 FROM applied) AS had_applied,
          (SELECT count(*) FROM ev)::int AS recorded, (SELECT plan FROM site) AS promoted_plan,
          (SELECT state FROM pending_submissions WHERE id = ${paid.siteId}::uuid) AS pending_state,
          EXISTS (SELECT 1 FROM sites WHERE id = ${paid.siteId}::uuid) AS site_exists`,
    );
  } catch (error) {
    if (isUniqueViolation(error)) return { kind: 'unapplied', reason: 'taken' };
    throw error;
  }
  if (!row) throw new Error('promotePaidSubmission: no result row');
  if (row.promoted_plan) {
    dispatchCrawl(deps, paid.siteId);
    return { kind: 'promoted', siteId: paid.siteId, plan: row.promoted_plan };
  }
  const recorded = Number(row.recorded) > 0;
  if (!recorded && (row.had_target || row.had_applied)) return { kind: 'duplicate' };
  if (recorded && row.had_applied) return { kind: 'already_applied' };
  if (recorded) return afterLostRace(deps, paid);
  // The main query sees the state before this statement: why the payment has nowhere to go. (A site paid by
  // this very session would have matched `applied` above.)
  if (row.site_exists) return { kind: 'unapplied', reason: 'already_paid' };
  if (row.pending_state === 'refunded') return { kind: 'unapplied', reason: 'refunded_record' };
  return { kind: 'unapplied', reason: 'gone' };
}

/**
 * Our event was recorded but a concurrent delivery of ANOTHER event promoted the record first. Same session:
 * nothing to do. Another session: this payment is a second one and must be refunded, so the event record is
 * released again (the refund path records it once the refund went through).
 */
async function afterLostRace(deps: Deps, paid: PaidCheckout): Promise<PromoteOutcome> {
  const [site] = await queryRows<{ session: string | null }>(
    deps.db,
    sql`SELECT stripe_checkout_session_id AS session FROM sites WHERE id = ${paid.siteId}::uuid`,
  );
  if (site?.session === paid.sessionId) return { kind: 'already_applied' };
  await queryRows(deps.db, sql`DELETE FROM stripe_events WHERE id = ${paid.eventId} RETURNING id`);
  return { kind: 'unapplied', reason: site ? 'already_paid' : 'gone' };
}
