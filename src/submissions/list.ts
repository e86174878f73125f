import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import { preparedStatement } from '../db/prepared';
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
export async function listSubmissions({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: ListInput;
}): Promise<SiteList> {
  const byUrl = input.canonicalUrl !== undefined;
  const values = {
    accountId: actor.accountId,
    url: input.canonicalUrl ?? null,
    limit: input.limit,
    offset: input.offset,
  };
  const rows = await (byUrl ? pageOfUrl : page).rows<SiteRow & { total: number | string }>(deps.db, values);
  let total = rows.length ? Number(rows[0]!.total) : 0;
  if (!rows.length && input.offset > 0) {
    const [count] = await queryRows<{ total: number | string }>(
      deps.db,
      sql`SELECT count(*) AS total FROM sites s WHERE s.account_id = ${actor.accountId}${byUrl ? sql` AND s.canonical_url = ${input.canonicalUrl}` : sql``}`,
    );
    total = Number(count?.total ?? 0);
  }
  return { sites: rows.map(toSiteRecord), total, limit: input.limit, offset: input.offset };
}

/** A page of the list, and of the list filtered to one canonical URL; built once per process (src/db/prepared.ts). */
const pageStatement = (byUrl: boolean) =>
  preparedStatement<'accountId' | 'url' | 'limit' | 'offset'>(
    (p) => sql`SELECT ${siteRecordColumns}, count(*) OVER () AS total FROM sites s
        WHERE s.account_id = ${p('accountId')}${byUrl ? sql` AND s.canonical_url = ${p('url')}` : sql``}
        ORDER BY s.submitted_at DESC, s.id DESC LIMIT ${p('limit')} OFFSET ${p('offset')}`,
  );
const page = pageStatement(false);
const pageOfUrl = pageStatement(true);
