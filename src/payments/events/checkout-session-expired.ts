import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { StripeEventHandler } from '../handler';
import { checkoutSessionView } from '../stripe-event';

/**
 * checkout.session.expired: the pending record becomes `expired` only while this session is its current one
 * (a replaced link expiring must not touch the fresh one). It stays readable by id until purged.
 */
export const checkoutSessionExpired: StripeEventHandler = async (deps, event) => {
  const session = checkoutSessionView(event.data.object);
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`UPDATE pending_submissions SET state = 'expired'
        WHERE checkout_session_id = ${session.sessionId} AND state = 'open' RETURNING id`,
  );
  return rows[0] ? `pending ${rows[0].id} expired` : `session ${session.sessionId} is no pending record's current link: nothing changed`;
};
