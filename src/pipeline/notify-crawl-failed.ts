import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { notifyCrawlFailed } from './notify';

/**
 * Mails the owner of a site that has just ended in crawl_failed (the crawl step's last attempt, or the sweep
 * ending a crawl that never finished). Called only by the statement that made the transition, so once per failure.
 */
export async function notifyCrawlFailedSite(deps: Deps, siteId: string): Promise<void> {
  const [site] = await queryRows<{
    account_id: string;
    notify_email: string | null;
    name: string;
    url: string;
    kind: string | null;
    http_status: number | null;
  }>(
    deps.db,
    sql`SELECT s.account_id, COALESCE(s.email, a.email) AS notify_email, s.name, s.url, s.crawl_error_kind AS kind,
          s.crawl_error_http_status AS http_status
        FROM sites s JOIN accounts a ON a.id = s.account_id WHERE s.id = ${siteId}::uuid AND s.status = 'crawl_failed'`,
  );
  if (!site) return;
  await notifyCrawlFailed(deps, {
    accountId: site.account_id,
    siteId,
    to: site.notify_email,
    name: site.name,
    url: site.url,
    kind: site.kind,
    httpStatus: site.http_status === null ? null : Number(site.http_status),
  });
}
