import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { CHECKOUT_LIFETIME_MS } from '../adapters/payments/types';
import { membershipTiers, type MembershipTier } from '../catalog/plans';

/** A membership Checkout Session of ours, as the local checkout page shows and pays it. */
export interface MembershipCheckoutLookup {
  accountId: string;
  email: string;
  tier: MembershipTier;
  /** What our record says the session charges. */
  amountTotal: number;
  currency: string;
  /** The reference the session's subscription carries in its metadata (SUBSCRIPTION_REF_KEY). */
  ref: string | null;
  /** The account's Stripe customer: a session made for a known customer bills that customer. */
  customerId: string | null;
  /** Set once paid: the completed session linked the subscription it started. */
  subscriptionId: string | null;
  /** Links live 24 hours, like every checkout link. */
  expiresAt: Date;
}

interface Row {
  account_id: string;
  email: string;
  plan: string;
  amount_total: string | number | null;
  currency: string | null;
  ref: string | null;
  customer_id: string | null;
  subscription_id: string | null;
  created_at: string;
}

/** The membership our record of `sessionId` names (checkout_sessions, purpose membership), or undefined. One statement. */
export async function findMembershipCheckout(
  deps: Deps,
  sessionId: string,
): Promise<MembershipCheckoutLookup | undefined> {
  const [row] = await queryRows<Row>(
    deps.db,
    sql`SELECT c.account_id, a.email, c.plan, c.amount_total, c.currency, c.ref, a.stripe_customer_id AS customer_id,
          c.subscription_id, ${isoTimestamp(sql`c.created_at`)} AS created_at
        FROM checkout_sessions c JOIN accounts a ON a.id = c.account_id
        WHERE c.id = ${sessionId} AND c.purpose = 'membership'`,
  );
  const tier = membershipTiers.find((t) => t === row?.plan);
  if (!row || !tier) return undefined;
  return {
    accountId: row.account_id,
    email: row.email,
    tier,
    amountTotal: Number(row.amount_total ?? 0),
    currency: row.currency ?? 'usd',
    ref: row.ref,
    customerId: row.customer_id,
    subscriptionId: row.subscription_id,
    expiresAt: new Date(new Date(row.created_at).getTime() + CHECKOUT_LIFETIME_MS),
  };
}

/** Payable until paid (it started a subscription) or expired. */
export const isMembershipPayable = (m: MembershipCheckoutLookup, now: Date): boolean =>
  m.subscriptionId === null && m.expiresAt > now;
