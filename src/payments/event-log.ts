import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import type { StripeEventEnvelope } from './stripe-event';

/** True when this event id was applied before (a redelivery): its handler is skipped. */
export async function isEventRecorded(db: Db, eventId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(db, sql`SELECT 1 AS one FROM stripe_events WHERE id = ${eventId}`);
  return rows.length > 0;
}

/** Records an applied event with its summary; a concurrent duplicate finds the id taken and changes nothing. */
export async function recordEvent(db: Db, event: StripeEventEnvelope, summary: string): Promise<void> {
  await queryRows(
    db,
    sql`INSERT INTO stripe_events (id, type, summary) VALUES (${event.id}, ${event.type}, ${summary.slice(0, 500)})
        ON CONFLICT (id) DO NOTHING RETURNING id`,
  );
}
