import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { StripeEventEnvelope } from './stripe-event';

// Which Stripe objects are ours: only sessions recorded in checkout_sessions, and the subscriptions they started,
// change anything (docs/payments.md "Only our own sessions count"). Everything else on the same Stripe account
// (Payment Links, other products, subscriptions made elsewhere) is acknowledged and left alone.

/**
 * The summary of an event about an object this service did not create: nothing changed, nothing refunded or
 * cancelled. Logs the one warn line an operator needs to notice a misrouted endpoint.
 */
export function ignoreForeign(deps: Deps, event: StripeEventEnvelope, what: string): string {
  deps.log.warn('stripe event about an object this service did not create: ignored', {
    eventId: event.id,
    type: event.type,
    object: what,
  });
  return `${what} was not created by this service: ignored`;
}

/** True when `sessionId` is a Checkout Session we created. */
export async function isOurSession(deps: Deps, sessionId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    deps.db,
    sql`SELECT 1 AS one FROM checkout_sessions WHERE id = ${sessionId}`,
  );
  return rows.length > 0;
}

/** Our record of the session that started a subscription. */
export interface OurSubscription {
  purpose: 'submission' | 'membership';
  accountId: string;
  siteId: string | null;
  /** Plan (submission) or tier (membership) the session was created for. */
  plan: string;
}

/**
 * The session record a subscription belongs to: by its id once known (the completed session links it), else
 * by the reference our session put into its metadata, for events that arrive before the completed session;
 * that first sight links the id. Undefined: not a subscription we created. One statement.
 */
export async function findOurSubscription(
  deps: Deps,
  subscriptionId: string,
  ref: string | undefined,
): Promise<OurSubscription | undefined> {
  if (!subscriptionId) return undefined;
  const [row] = await queryRows<{
    purpose: OurSubscription['purpose'];
    account_id: string;
    site_id: string | null;
    plan: string;
  }>(
    deps.db,
    sql`WITH found AS (
          (SELECT id, purpose, account_id, site_id, plan FROM checkout_sessions WHERE subscription_id = ${subscriptionId} LIMIT 1)
          UNION ALL
          (SELECT id, purpose, account_id, site_id, plan FROM checkout_sessions
           WHERE ref = ${ref ?? null}::text AND mode = 'subscription' AND subscription_id IS NULL)
          LIMIT 1
        ), linked AS (
          UPDATE checkout_sessions c SET subscription_id = ${subscriptionId}
          FROM found WHERE c.id = found.id AND c.subscription_id IS NULL
          RETURNING c.id
        )
        SELECT purpose, account_id, site_id, plan FROM found`,
  );
  return row && { purpose: row.purpose, accountId: row.account_id, siteId: row.site_id, plan: row.plan };
}
