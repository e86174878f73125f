// Moving a listing to another account (docs/ownership.md "Claims"), shared by a claim and by the operator's award of
// a dispute: one statement that changes the owner, records the `claimed` history entry, supersedes the previous
// owner's pending edit and queues `site.claimed` for both accounts' endpoints; then the mail and the announcement.
import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { MailMessage } from '../adapters/mail/types';
import { announceWebhookEvents } from '../webhooks/announce';

export interface ListingMove {
  siteId: string;
  fromAccountId: string;
  toAccountId: string;
  domain: string;
  /** A condition on `sites s` the move also needs (no proof of the owner for a claim; the settled dispute for an award). */
  guard: SQL;
  /** CTEs written before the move (ending with a comma), which `guard` may read; empty for a claim. */
  before?: SQL;
}

export interface MovedListing {
  id: string;
  name: string;
  url: string;
  previous_email: string;
  new_email: string;
}

/**
 * The move, in ONE statement: nothing happens unless the listing is still `fromAccountId`'s and `guard` holds, so of
 * concurrent moves one wins. What was paid stays with the listing. Undefined when nothing moved.
 */
export async function moveListing(deps: Deps, move: ListingMove): Promise<MovedListing | undefined> {
  const { siteId, fromAccountId: from, toAccountId: to, domain } = move;
  const [moved] = await queryRows<MovedListing>(
    deps.db,
    sql`WITH ${move.before ?? sql``} moved AS (
          UPDATE sites s SET account_id = ${to}::uuid, email = NULL
          WHERE s.id = ${siteId}::uuid AND s.account_id = ${from}::uuid AND ${move.guard}
          RETURNING s.id, s.name, s.url, s.status, s.live_url),
        claim AS (
          INSERT INTO site_claims (id, site_id, from_account_id, to_account_id, domain, outcome, site_status)
          SELECT ${crypto.randomUUID()}::uuid, m.id, ${from}::uuid, ${to}::uuid, ${domain}, 'claimed', m.status FROM moved m RETURNING id),
        edits AS (
          UPDATE site_edits e SET status = 'superseded', decided_at = now()
          WHERE e.site_id IN (SELECT id FROM moved) AND e.status = 'pending' AND e.account_id = ${from}::uuid RETURNING e.id),
        events AS (
          INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, data, site_id)
          SELECT w.id, ${`evt_${crypto.randomUUID().replaceAll('-', '')}`}, 'site.claimed',
            jsonb_build_object('site_id', m.id, 'name', m.name, 'url', m.url, 'status', m.status, 'live_url', m.live_url,
              'domain', ${domain}::text, 'claimed', w.account_id = ${to}::uuid),
            m.id
          FROM moved m JOIN webhooks w ON w.account_id IN (${to}::uuid, ${from}::uuid) AND 'site.claimed' = ANY (w.events)
          RETURNING 1)
        SELECT m.id, m.name, m.url, prev.email AS previous_email, next.email AS new_email,
          (SELECT count(*) FROM claim) + (SELECT count(*) FROM edits) + (SELECT count(*) FROM events) AS writes
        FROM moved m JOIN accounts prev ON prev.id = ${from}::uuid JOIN accounts next ON next.id = ${to}::uuid`,
  );
  if (moved) deps.defer(announceWebhookEvents(deps));
  return moved;
}

/** Mail that cannot be sent is logged, never fails the decision that was already made. */
export async function sendClaimMail(deps: Deps, message: MailMessage, siteId: string): Promise<void> {
  try {
    await deps.mail.send(message);
  } catch (error) {
    deps.log.warn('claim mail not sent', { site_id: siteId, err: String(error) });
  }
}
