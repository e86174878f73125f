import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { StripeEventHandler } from '../handler';
import { ignoreForeign } from '../ours';
import { checkoutSessionView } from '../stripe-event';

/**
 * checkout.session.expired of one of our sessions: the pending record becomes `expired` only while this session
 * is its current one (a replaced link expiring must not touch the fresh one), and its expires_at becomes the
 * moment the link stopped working (the event's time when Stripe expired it early), so the detail read shows it
 * dead. It stays readable by id until purged.
 */
export const checkoutSessionExpired: StripeEventHandler = async (deps, event) => {
  const session = checkoutSessionView(event.data.object);
  const [row] = await queryRows<{ ours: string | null; pending_id: string | null }>(
    deps.db,
    sql`WITH ours AS (
          SELECT id FROM checkout_sessions WHERE id = ${session.sessionId}
        ), expired AS (
          UPDATE pending_submissions p SET state = 'expired', expires_at = least(p.expires_at, to_timestamp(${event.created}))
          FROM ours WHERE p.checkout_session_id = ours.id AND p.state = 'open'
          RETURNING p.id
        )
        SELECT (SELECT id FROM ours) AS ours, (SELECT id FROM expired) AS pending_id`,
  );
  if (!row?.ours) return ignoreForeign(deps, event, `checkout session ${session.sessionId || '?'}`);
  return row.pending_id ? `pending ${row.pending_id} expired` : `session ${session.sessionId} is no pending record's current link: nothing changed`;
};
