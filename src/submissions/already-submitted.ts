import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';

/** 409 already_submitted; the existing id is disclosed only to its owner (reference 2.7). */
export function alreadySubmitted(actor: Actor, existing: { siteId: string; accountId: string }): ServiceError {
  const own = existing.accountId === actor.accountId;
  return new ServiceError(
    'already_submitted',
    own ? 'You already submitted this URL or name.' : 'This URL or name has already been submitted.',
    own ? { site_id: existing.siteId } : {},
  );
}

/** After a unique violation (a concurrent submit won), find the winner to answer 409 precisely. */
export async function conflictFor(
  db: Db,
  actor: Actor,
  target: { canonicalUrl: string; normalizedName: string },
): Promise<ServiceError> {
  const [row] = await queryRows<{ id: string; account_id: string }>(
    db,
    sql`SELECT id, account_id FROM sites WHERE canonical_url = ${target.canonicalUrl}
        OR normalized_name = ${target.normalizedName} ORDER BY (account_id = ${actor.accountId}) DESC LIMIT 1`,
  );
  return row
    ? alreadySubmitted(actor, { siteId: row.id, accountId: row.account_id })
    : new ServiceError('already_submitted', 'This URL or name has already been submitted.');
}
