import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { isoTimestamp } from '../db/sql-format';
import { siteRecordColumns, toSiteRecord, type SiteRow } from '../submissions/records';
import type { SiteRecord } from '../submissions/record-schemas';

/** What operators see of a site: the caller's record plus the pipeline's working data and its history. */
export interface OperatorSiteView {
  site: SiteRecord;
  pipeline: {
    crawl_attempts: number;
    /** The last failure's operator detail: may name resolved addresses and internal hosts (never shown to submitters). */
    crawl_error: string | null;
    /** The last failure's kind; the submitter sees it as the site record's crawl_error. */
    crawl_error_kind: string | null;
    crawl_error_http_status: number | null;
    metadata: Record<string, string | null> | null;
    review_checks: Record<string, unknown> | null;
    review_reason: string | null;
    slug: string | null;
  };
  history: Array<{ from_status: string | null; to_status: string; note: string | null; at: string }>;
}

const parse = <T>(v: unknown): T | null =>
  v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as T);

/** One site as operators see it (read by id, any owner). */
export async function getOperatorSite(deps: Deps, siteId: string): Promise<OperatorSiteView> {
  const [row] = await queryRows<
    SiteRow & {
      crawl_attempts: number;
      crawl_error: string | null;
      metadata: unknown;
      review_checks: unknown;
      review_reason: string | null;
      slug: string | null;
      history: unknown;
    }
  >(
    deps.db,
    sql`SELECT ${siteRecordColumns}, s.crawl_attempts, s.crawl_error, s.metadata, s.review_checks, s.review_reason, s.slug,
          (SELECT COALESCE(json_agg(json_build_object('from_status', h.from_status, 'to_status', h.to_status, 'note', h.note,
              'at', ${isoTimestamp(sql`h.at`)}) ORDER BY h.id), '[]'::json)
           FROM site_history h WHERE h.site_id = s.id) AS history
        FROM sites s WHERE s.id = ${siteId}::uuid`,
  );
  if (!row) throw new ServiceError('not_found', 'No site with this id.');
  return {
    site: toSiteRecord(row),
    pipeline: {
      crawl_attempts: Number(row.crawl_attempts),
      crawl_error: row.crawl_error,
      crawl_error_kind: row.crawl_error_kind,
      crawl_error_http_status: row.crawl_error_http_status === null ? null : Number(row.crawl_error_http_status),
      metadata: parse(row.metadata),
      review_checks: parse(row.review_checks),
      review_reason: row.review_reason,
      slug: row.slug,
    },
    history: parse<OperatorSiteView['history']>(row.history) ?? [],
  };
}
