import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps';
import { preparedStatement } from '../db/prepared';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import { toolColumns, toolHealthColumns, toToolDetail, type ToolDetail, type ToolRow } from './tool-record';
import { mcpJoin, toolMcpColumns } from './mcp-record';

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
  const bySlug = 'slug' in ref;
  if (bySlug ? !SLUG.test(ref.slug) : !isUuid(ref.site_id)) throw notFound();
  const [row] = await (bySlug ? toolBySlug : toolById).rows<ToolRow>(deps.db, { key: bySlug ? ref.slug : ref.site_id });
  if (!row) throw notFound();
  return toToolDetail(row, deps.origin);
}

/** Built once per process (src/db/prepared.ts): the read is one indexed lookup, its rendering should not cost more. */
const toolStatement = (column: SQL) =>
  preparedStatement<'key'>(
    (
      p,
    ) => sql`SELECT ${toolColumns}, ${toolHealthColumns}, ${toolMcpColumns} FROM sites s LEFT JOIN site_health h ON h.site_id = s.id ${mcpJoin}
  WHERE ${column} = ${p('key')} AND s.status = 'live'`,
  );
const toolBySlug = toolStatement(sql`s.slug`);
const toolById = toolStatement(sql`s.id`);

/** The one not_found for a tool that is not listed (the badge route answers with it too). */
export const notFound = () =>
  new ServiceError('not_found', 'No live tool with this slug or site_id is listed in the directory.');
