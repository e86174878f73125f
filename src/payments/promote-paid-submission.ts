import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { isUniqueViolation, queryRows } from '../db/client';
import { planPlacement, planSpellings, type PlanName } from '../catalog/plans';
import { dispatchCrawl } from '../submissions/dispatch-crawl';
import { sessionMismatch, type ChargedSession, type SessionMismatch } from '../submissions/checkout-record';
import { payableStates } from '../catalog/payment-states';
import { sqlWords } from '../db/sql-format';

/** `'sponsored', 'pro'`: every stored spelling of the plans `pick` selects (the plan table; `pro` is sponsored). */
const spellingsSql = (pick: (kind: keyof typeof planPlacement) => boolean) => sqlWords(planSpellings(pick));
const featuredPlans = spellingsSql((kind) => planPlacement[kind].isFeature);
const sponsoredPlans = spellingsSql((kind) => planPlacement[kind].isSponsor);

/** A completed payment as the webhook knows it. */
export interface PaidCheckout {
  eventId: string;
  eventType: string;
  /** Event creation time (seconds): stamps sponsor_updated_at so older subscription events cannot undo it. */
  eventCreated: number;
  sessionId: string;
  /** What the event says the session charged: compared with our record of it. */
  charged: ChargedSession;
  paymentIntentId?: string;
  subscriptionId?: string;
}

/** Our record of a Checkout Session (checkout_sessions), as the promotion read it. */
export interface OurSession {
  purpose: 'submission' | 'membership';
  accountId: string;
  /** The pending record (site id) a submission session pays for. */
  siteId: string | null;
  /** Plan (submission) or tier (membership) it was created for. */
  plan: string;
  mode: string;
  amountTotal: number | null;
  currency: string | null;
}

/** Why a payment could not be applied: each of these is refunded by the caller. */
export type UnappliedReason = 'taken' | 'gone' | 'already_paid' | 'refunded_record' | 'superseded' | 'mismatch';

export type PromoteOutcome =
  /** `announce`: the account has webhook endpoints, so its outbox has rows to send (docs/webhooks.md). */
  | { kind: 'promoted'; siteId: string; plan: PlanName; announce: boolean }
  /** This event id was recorded before: nothing changed. */
  | { kind: 'duplicate'; siteId: string }
  /** The site was already queued by this same session (completed, then async_payment_succeeded). */
  | { kind: 'already_applied'; siteId: string }
  | { kind: 'unapplied'; siteId: string; reason: Exclude<UnappliedReason, 'mismatch'> }
  /** Not a session this service created (a Payment Link, another product): nothing to apply, nothing to refund. */
  | { kind: 'not_ours' }
  /** Ours, but it charged something else than we created (mode, currency or amount): refunded by the caller. */
  | { kind: 'mismatch'; session: OurSession; field: SessionMismatch }
  /** Ours and as created, but a membership checkout: applied by the memberships module. */
  | { kind: 'membership'; session: OurSession };

interface Row {
  purpose: OurSession['purpose'] | null;
  account_id: string | null;
  site_id: string | null;
  plan: string | null;
  mode: string | null;
  amount_total: string | number | null;
  currency: string | null;
  mismatch: SessionMismatch | null;
  had_target: boolean;
  had_applied: boolean;
  recorded: number;
  promoted_plan: PlanName | null;
  pending_state: string | null;
  site_exists: boolean;
  has_webhooks: boolean;
}

/**
 * Promotes a paid pending record to a `queued` site (same site_id, via payment) in ONE statement that also
 * records the Stripe event id. Only a session we created counts (docs/payments.md "Only our own sessions
 * count"): the statement joins checkout_sessions on the event's session id, takes the site and the plan from
 * that record (never from the event's metadata or client_reference_id), and applies nothing when the session
 * charged another mode, currency or amount than we created. It also links the subscription a subscription-mode
 * session started to our record, so that subscription's events are recognised later.
 * The event insert gates the delete, the delete feeds the insert. Duplicate or concurrent deliveries find the
 * event id taken (or the pending row gone) and change nothing. A session that is not the record's current one
 * is honoured while the record is still pending (open or expired). A URL or name taken meanwhile raises a
 * unique violation that rolls the whole statement back: 'unapplied', 'taken'.
 */
export async function promotePaidSubmission(deps: Deps, paid: PaidCheckout): Promise<PromoteOutcome> {
  let row: Row | undefined;
  try {
    [row] = await queryRows<Row>(
      deps.db,
      sql`WITH ours AS (
          SELECT cs.*, ${sessionMismatch(paid.charged)} AS mismatch FROM checkout_sessions cs WHERE cs.id = ${paid.sessionId}
        ), fits AS (
          SELECT site_id, plan, subscription_deleted_at FROM ours WHERE mismatch IS NULL AND purpose = 'submission'
        ), linked AS (
          UPDATE checkout_sessions c SET subscription_id = ${paid.subscriptionId ?? null}::text
          FROM ours
          WHERE c.id = ours.id AND ours.mismatch IS NULL AND ours.mode = 'subscription' AND c.subscription_id IS NULL
            AND ${paid.subscriptionId ?? null}::text IS NOT NULL
          RETURNING c.id
        ), target AS (
          SELECT p.id FROM pending_submissions p JOIN fits ON p.id = fits.site_id WHERE p.state IN (${sqlWords(payableStates)})
        ), applied AS (
          SELECT s.id FROM sites s JOIN fits ON s.id = fits.site_id WHERE s.stripe_checkout_session_id = ${paid.sessionId}
        ), ev AS (
          INSERT INTO stripe_events (id, type, summary)
          SELECT ${paid.eventId}, ${paid.eventType}, 'payment for ' || fits.site_id || ' (' || ${paid.sessionId}::text || ')'
          FROM fits
          WHERE EXISTS (SELECT 1 FROM target) OR EXISTS (SELECT 1 FROM applied)
          ON CONFLICT (id) DO NOTHING
          RETURNING id
        ), paid AS (
          DELETE FROM pending_submissions p
          USING fits
          WHERE p.id = fits.site_id AND p.state IN (${sqlWords(payableStates)})
            AND EXISTS (SELECT 1 FROM ev) AND NOT EXISTS (SELECT 1 FROM applied)
          RETURNING p.*, fits.plan AS final_plan, fits.subscription_deleted_at
        ), site AS (
          INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, email,
            is_feature, is_sponsor, submitted_at, status_note, stripe_checkout_session_id, stripe_payment_intent_id,
            stripe_subscription_id, sponsor_updated_at, mcp_url)
          SELECT y.id, y.account_id, y.name, y.url, y.canonical_url, y.normalized_name, 'queued', 'payment', y.final_plan,
            y.email, y.final_plan IN (${featuredPlans}),
            y.final_plan IN (${sponsoredPlans}) AND y.subscription_deleted_at IS NULL,
            y.submitted_at, 'paid',
            ${paid.sessionId}::text, ${paid.paymentIntentId ?? null}::text, ${paid.subscriptionId ?? null}::text,
            CASE WHEN y.final_plan IN (${sponsoredPlans}) THEN to_timestamp(${paid.eventCreated}) END,
            y.mcp_url
          FROM paid y
          RETURNING plan
        ), categorised AS (
          -- The submitter's categories travel with the record; one deleted while it waited for payment is left out.
          INSERT INTO site_categories (site_id, category_slug)
          SELECT y.id, c.slug FROM paid y JOIN categories c ON c.slug = ANY (y.categories)
        )
        SELECT o.purpose, o.account_id, o.site_id, o.plan, o.mode, o.amount_total, o.currency, o.mismatch,
          EXISTS (SELECT 1 FROM target) AS had_target, EXISTS (SELECT 1 FROM applied) AS had_applied,
          (SELECT count(*) FROM ev)::int AS recorded, (SELECT plan FROM site) AS promoted_plan,
          (SELECT state FROM pending_submissions WHERE id = o.site_id) AS pending_state,
          EXISTS (SELECT 1 FROM sites WHERE id = o.site_id) AS site_exists,
          EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = o.account_id) AS has_webhooks
        FROM (SELECT 1) one LEFT JOIN ours o ON true`,
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const siteId = await sessionSiteId(deps, paid.sessionId);
    if (!siteId) throw error;
    return { kind: 'unapplied', siteId, reason: 'taken' };
  }
  if (!row) throw new Error('promotePaidSubmission: no result row');
  if (!row.purpose || !row.account_id || !row.plan || !row.mode) return { kind: 'not_ours' };
  const session: OurSession = {
    purpose: row.purpose,
    accountId: row.account_id,
    siteId: row.site_id,
    plan: row.plan,
    mode: row.mode,
    amountTotal: row.amount_total === null ? null : Number(row.amount_total),
    currency: row.currency,
  };
  if (row.mismatch) return { kind: 'mismatch', session, field: row.mismatch };
  if (session.purpose === 'membership' || !session.siteId) return { kind: 'membership', session };
  const siteId = session.siteId;
  if (row.promoted_plan) {
    dispatchCrawl(deps, siteId);
    return { kind: 'promoted', siteId, plan: row.promoted_plan, announce: Boolean(row.has_webhooks) };
  }
  const recorded = Number(row.recorded) > 0;
  if (!recorded && (row.had_target || row.had_applied)) return { kind: 'duplicate', siteId };
  if (recorded && row.had_applied) return { kind: 'already_applied', siteId };
  if (recorded) return afterLostRace(deps, paid, siteId);
  // The main query sees the state before this statement: why the payment has nowhere to go. (A site paid by
  // this very session would have matched `applied` above.)
  if (row.site_exists) return { kind: 'unapplied', siteId, reason: 'already_paid' };
  if (row.pending_state === 'refunded') return { kind: 'unapplied', siteId, reason: 'refunded_record' };
  // The maker listed the tool themselves meanwhile (src/submissions/supersede-unpaid.ts): never a second listing.
  if (row.pending_state === 'superseded') return { kind: 'unapplied', siteId, reason: 'superseded' };
  return { kind: 'unapplied', siteId, reason: 'gone' };
}

/** The site a submission session of ours pays for (after a rolled-back promotion). */
async function sessionSiteId(deps: Deps, sessionId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ site_id: string | null }>(
    deps.db,
    sql`SELECT site_id FROM checkout_sessions WHERE id = ${sessionId} AND purpose = 'submission'`,
  );
  return row?.site_id ?? undefined;
}

/**
 * Our event was recorded but a concurrent delivery of ANOTHER event promoted the record first. Same session:
 * nothing to do. Another session: this payment is a second one and must be refunded, so the event record is
 * released again (the refund path records it once the refund went through).
 */
async function afterLostRace(deps: Deps, paid: PaidCheckout, siteId: string): Promise<PromoteOutcome> {
  const [site] = await queryRows<{ session: string | null }>(
    deps.db,
    sql`SELECT stripe_checkout_session_id AS session FROM sites WHERE id = ${siteId}::uuid`,
  );
  if (site?.session === paid.sessionId) return { kind: 'already_applied', siteId };
  await queryRows(deps.db, sql`DELETE FROM stripe_events WHERE id = ${paid.eventId} RETURNING id`);
  return { kind: 'unapplied', siteId, reason: site ? 'already_paid' : 'gone' };
}
