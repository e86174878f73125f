import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { SiteList } from './record-schemas';
import type { SiteRow } from './records';
import { siteRecordColumns, toSiteRecord } from './records';

export interface ListInput {
  limit: number;
  offset: number;
  /** Canonical URL to filter by (DECISIONS.md: the CLI's `status <url>`). */
  canonicalUrl?: string;
}

/**
 * The caller's submissions past payment, newest first (reference 4.3), with the total in the same
 * statement. Only an offset past the end costs a second statement, to still report the total.
 */
export async function listSubmissions({ deps, actor, input }: { deps: Deps; actor: Actor; input: ListInput }): Promise<SiteList> {
  const filter = input.canonicalUrl === undefined ? sql`` : sql` AND s.canonical_url = ${input.canonicalUrl}`;
  const where = sql`s.account_id = ${actor.accountId}${filter}`;
  const rows = await queryRows<SiteRow & { total: number | string }>(
    deps.db,
    sql`SELECT ${siteRecordColumns}, count(*) OVER () AS total FROM sites s WHERE ${where}
        ORDER BY s.submitted_at DESC, s.id DESC LIMIT ${input.limit} OFFSET ${input.offset}`,
  );
  let total = rows.length ? Number(rows[0]!.total) : 0;
  if (!rows.length && input.offset > 0) {
    const [count] = await queryRows<{ total: number | string }>(
      deps.db,
      sql`SELECT count(*) AS total FROM sites s WHERE ${where}`,
    );
    total = Number(count?.total ?? 0);
  }
  return { sites: rows.map(toSiteRecord), total, limit: input.limit, offset: input.offset };
}
