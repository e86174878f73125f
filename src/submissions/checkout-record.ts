import { sql, type SQL } from 'drizzle-orm';
import type { CheckoutSession } from '../adapters/payments/types';
import type { MembershipTier } from '../catalog/plans';

// Our record of every Checkout Session we create (checkout_sessions), and the one rule an event about a
// session must pass against it (docs/payments.md "Only our own sessions count").

/** Who a session was made for: a submission (the pending record's id) or an account's membership tier. */
export type SessionOwner =
  | { purpose: 'submission'; accountId: string; siteId: string; plan: string }
  | { purpose: 'membership'; accountId: string; tier: MembershipTier };

/**
 * The INSERT that records `session`, for use as a CTE of the statement that stores what it pays for, so a
 * session is never handed out unrecorded. A retried request that got the same session back changes nothing.
 */
export function recordCheckoutSession(session: CheckoutSession, owner: SessionOwner): SQL {
  const siteId = owner.purpose === 'submission' ? owner.siteId : null;
  const plan = owner.purpose === 'submission' ? owner.plan : owner.tier;
  return sql`INSERT INTO checkout_sessions (id, purpose, account_id, site_id, plan, mode, amount_total, currency,
      promotion_codes, ref)
    VALUES (${session.sessionId}, ${owner.purpose}, ${owner.accountId}::uuid, ${siteId}::uuid, ${plan}, ${session.mode},
      ${session.amountTotal}::bigint, ${session.currency}, ${session.promotionCodes}, ${session.ref ?? null}::text)
    ON CONFLICT DO NOTHING`;
}

/** What a paid session event says it charged. */
export interface ChargedSession {
  mode?: string;
  currency?: string;
  amountTotal?: number;
  /** total_details.amount_tax: the tax Stripe Tax added (or included), 0 or absent without it. */
  amountTax?: number;
  paymentStatus: string;
}

/** The field of a paid session that differs from our record, as sessionMismatch() names it. */
export type SessionMismatch = 'mode' | 'currency' | 'amount_total';

/**
 * NULL when the paid session charged what we created (row alias `cs` of checkout_sessions), else the first
 * field that differs. Two differences are allowed: the tax Stripe Tax computed from the buyer's address (our
 * amount is before tax: amount_total is ours, or ours plus exactly the reported amount_tax for a tax-exclusive
 * Price), and a 100 % promotion code: amount_total 0 with payment_status no_payment_required, on a session we
 * created with promotion codes allowed. Rows backfilled without an amount or currency
 * (drizzle/0009_checkout_sessions_backfill.sql) compare the mode only.
 */
export function sessionMismatch(charged: ChargedSession): SQL {
  return sql`CASE
      WHEN cs.mode IS DISTINCT FROM ${charged.mode ?? null}::text THEN 'mode'
      WHEN cs.currency IS NOT NULL AND cs.currency IS DISTINCT FROM ${charged.currency ?? null}::text THEN 'currency'
      WHEN cs.amount_total IS NULL OR cs.amount_total = ${charged.amountTotal ?? null}::bigint
        OR cs.amount_total + ${charged.amountTax ?? 0}::bigint = ${charged.amountTotal ?? null}::bigint THEN NULL
      WHEN cs.promotion_codes AND ${charged.amountTotal ?? null}::bigint = 0
        AND ${charged.paymentStatus}::text = 'no_payment_required' THEN NULL
      ELSE 'amount_total' END`;
}
