import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import { toolColumns, toToolDetail, type ToolDetail, type ToolRow } from './tool-record';

/** How a tool is named by a caller: its public slug (from live_url) or its site_id. */
export type ToolRef = { slug: string } | { site_id: string };

/** Control characters can never be in a slug (and a NUL would make Postgres refuse the statement). */
const SLUG = /^[^\s/?#\p{Cc}]{1,200}$/u;

/**
 * One live tool by slug or site_id (a core verb). Anything not live — unknown, still in review, rejected,
 * taken down — is the same not_found, so the directory never reveals submissions that are not public.
 * Public: no actor (the same for searchTools).
 */
export async function getTool({ deps, input: ref }: { deps: Deps; input: ToolRef }): Promise<ToolDetail> {
  let where;
  if ('slug' in ref) {
    if (!SLUG.test(ref.slug)) throw notFound();
    where = sql`s.slug = ${ref.slug}`;
  } else {
    if (!isUuid(ref.site_id)) throw notFound();
    where = sql`s.id = ${ref.site_id}`;
  }
  const [row] = await queryRows<ToolRow>(deps.db, sql`SELECT ${toolColumns} FROM sites s WHERE ${where} AND s.status = 'live'`);
  if (!row) throw notFound();
  return toToolDetail(row, deps.origin);
}

/** The one not_found for a tool that is not listed (the badge route answers with it too). */
export const notFound = () => new ServiceError('not_found', 'No live tool with this slug or site_id is listed in the directory.');
