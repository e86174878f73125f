import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { publicCrawlError, type PublicCrawlError } from '../crawler/crawl-error-messages';

/** A crawl that ended in crawl_failed, as the editor page shows it: what the submitter was told, and the detail. */
export interface CrawlFailureItem {
  site_id: string;
  name: string;
  url: string;
  crawl_attempts: number;
  failed_at: string;
  /** What the submitter reads (site record, /account). */
  told: PublicCrawlError;
  /** The operator detail: resolved addresses, internal names, exception text. Operators only. */
  detail: string | null;
}

/** The newest crawl failures, for /admin (sites_status_changed_idx serves the order). */
export async function listRecentCrawlFailures(deps: Deps, limit = 20): Promise<CrawlFailureItem[]> {
  const rows = await queryRows<{
    site_id: string;
    name: string;
    url: string;
    crawl_attempts: number;
    failed_at: string;
    crawl_error: string | null;
    crawl_error_kind: string | null;
    crawl_error_http_status: number | null;
  }>(
    deps.db,
    sql`SELECT id AS site_id, name, url, crawl_attempts, crawl_error, crawl_error_kind, crawl_error_http_status,
          to_char(status_changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS failed_at
        FROM sites WHERE status = 'crawl_failed' ORDER BY status_changed_at DESC LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    site_id: row.site_id,
    name: row.name,
    url: row.url,
    crawl_attempts: Number(row.crawl_attempts),
    failed_at: row.failed_at,
    told: publicCrawlError(row.crawl_error_kind, row.crawl_error_http_status),
    detail: row.crawl_error,
  }));
}
