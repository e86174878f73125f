import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client';
import type { Deps } from '../../src/deps';
import { decideReview } from '../../src/pipeline/decide-review';

/**
 * Moves a queued site along the pipeline's own path, one status change per statement, as the crawl job and the
 * editor leave it: each step is a site_history row (the trigger), with the notes the pipeline writes, so the
 * detail read's history, reasons and queue read like a real run. For pages that show a submission's state
 * without running the crawler.
 */
export async function moveSite(
  deps: Deps,
  siteId: string,
  to: 'crawling' | 'crawl_failed' | 'pending_review' | 'live' | 'rejected',
  options: { reason?: string } = {},
): Promise<void> {
  await setStatus(deps.db, siteId, 'crawling', sql`status_note = NULL`);
  if (to === 'crawling') return;
  if (to === 'crawl_failed') {
    await setStatus(
      deps.db,
      siteId,
      'crawl_failed',
      sql`crawl_error_kind = 'http_error', crawl_error_http_status = 503, status_note = 'attempt 1 of 1 failed: the site answered HTTP 503'`,
    );
    return;
  }
  await setStatus(deps.db, siteId, 'pending_review', sql`status_note = 'crawled'`);
  if (to === 'pending_review') return;
  await decideReview(
    deps,
    siteId,
    to === 'live' ? { decision: 'approve' } : { decision: 'reject', reason: options.reason },
  );
}

async function setStatus(db: Db, siteId: string, status: string, set: ReturnType<typeof sql>) {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE sites SET status = ${status}, ${set} WHERE id = ${siteId}::uuid RETURNING id`,
  );
  if (rows.length !== 1) throw new Error(`no site ${siteId} to move to ${status}`);
}
