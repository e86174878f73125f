import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { siteRecordColumns, toSiteRecord, type SiteRow } from '../submissions/records';
import type { SiteRecord } from '../submissions/record-schemas';
import { notifyRejected } from './notify';
import { decisionApplies } from './decision-conditions';

/**
 * Rejects a pending_review site, or takes a live one down, in one conditional statement; the reason
 * (optional) is stored and mailed. The slug is kept so a republish gets the same public address.
 * Returns undefined when the site was in neither state.
 */
export async function rejectSite(deps: Deps, siteId: string, reason: string | null): Promise<SiteRecord | undefined> {
  const note = reason ? `rejected by an editor: ${reason}` : 'rejected by an editor';
  const [row] = await queryRows<SiteRow & { notify_email: string | null; previous_status: string }>(
    deps.db,
    sql`WITH before AS (SELECT status FROM sites WHERE id = ${siteId}::uuid),
        u AS (
          UPDATE sites s SET status = 'rejected', review_reason = ${reason}::text, reviewed_at = now(), status_note = ${note}::text
          WHERE s.id = ${siteId}::uuid AND ${decisionApplies.reject}
          RETURNING s.*
        )
        SELECT ${siteRecordColumns}, COALESCE(s.email, a.email) AS notify_email, (SELECT status FROM before) AS previous_status
        FROM u s JOIN accounts a ON a.id = s.account_id`,
  );
  if (!row) return undefined;
  await notifyRejected(deps, {
    to: row.notify_email,
    name: row.name,
    url: row.url,
    reason,
    wasLive: row.previous_status === 'live',
  });
  return toSiteRecord(row);
}
