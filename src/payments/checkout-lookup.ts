import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { SiteStatus } from '../catalog/site-statuses';
import type { PlanName } from '../catalog/plans';
import type { PendingState } from '../catalog/payment-states';

/** What a Checkout Session id stands for, for the checkout pages (local checkout, success page). */
export type CheckoutLookup =
  | {
      kind: 'pending';
      siteId: string;
      name: string;
      url: string;
      plan: PlanName;
      version: number;
      state: PendingState;
      stateNote: string | null;
      expiresAt: Date;
    }
  | { kind: 'site'; siteId: string; name: string; status: SiteStatus; plan: string };

interface Row {
  kind: 'pending' | 'site';
  site_id: string;
  name: string;
  url: string;
  plan: PlanName;
  version: number | null;
  state: PendingState | null;
  state_note: string | null;
  expires_at: string | null;
  status: SiteStatus | null;
}

/**
 * Finds the submission a Checkout Session belongs to: the site it paid for, else the pending record whose
 * CURRENT session it is (a replaced session id matches nothing). One statement.
 */
export async function findCheckoutSession(deps: Deps, sessionId: string): Promise<CheckoutLookup | undefined> {
  const [row] = await queryRows<Row>(
    deps.db,
    sql`SELECT 'site' AS kind, s.id AS site_id, s.name, s.url, s.plan, NULL::int AS version, NULL AS state,
          NULL AS state_note, NULL AS expires_at, s.status
        FROM sites s WHERE s.stripe_checkout_session_id = ${sessionId}
        UNION ALL
        SELECT 'pending', p.id, p.name, p.url, p.plan, p.version, p.state, p.state_note,
          to_char(p.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NULL
        FROM pending_submissions p WHERE p.checkout_session_id = ${sessionId}
        ORDER BY 1 DESC LIMIT 1`,
  );
  if (!row) return undefined;
  if (row.kind === 'site')
    return { kind: 'site', siteId: row.site_id, name: row.name, status: row.status!, plan: row.plan };
  return {
    kind: 'pending',
    siteId: row.site_id,
    name: row.name,
    url: row.url,
    plan: row.plan,
    version: Number(row.version),
    state: row.state!,
    stateNote: row.state_note,
    expiresAt: new Date(row.expires_at!),
  };
}

/** A pending record can be paid while its link is open and not past its expiry. */
export const isPayable = (c: CheckoutLookup, now: Date): boolean =>
  c.kind === 'pending' && c.state === 'open' && c.expiresAt > now;
