import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { preparedStatement } from '../db/prepared';
import { mediaPath } from '../media/media-name';
import { toolColumns, toolHealthColumns, toToolDetail, type ToolDetail, type ToolRow } from './tool-record';
import { mcpJoin, toolMcpColumns } from './mcp-record';

// Live tools as the public HTML pages read them: the same columns and shape as GET /api/v1/tools/{slug} and
// get_tool (./tool-record.ts), so a tool's page and its API record cannot disagree. (Search: ./search.ts; the paged cards: ./browse.ts.)

/**
 * A live tool as the public pages show it: the API's tool detail, plus the crawled page title; image and icon
 * are same-origin paths of our own copies (`/media/{sha256}.{ext}`, docs/media.md) where the API has absolute URLs.
 */
export type PublicTool = ToolDetail & {
  title: string | null /** Hidden by the re-check: the page shows a notice and asks not to be indexed. */;
  hidden: boolean;
};

const columns = sql`${toolColumns}, ${toolHealthColumns}, ${toolMcpColumns}, s.metadata->>'title' AS title`;

/** Built once per process (src/db/prepared.ts). */
const liveToolBySlug = preparedStatement<'slug'>(
  (p) =>
    sql`SELECT ${columns} FROM sites s LEFT JOIN site_health h ON h.site_id = s.id ${mcpJoin} WHERE s.slug = ${p('slug')} AND s.status = 'live'`,
);

type PublicToolRow = ToolRow & { title: string | null };

const toPublicTool = (row: PublicToolRow, origin: string): PublicTool => ({
  ...toToolDetail(row, origin),
  image: mediaPath(row.image),
  icon: mediaPath(row.icon),
  title: row.title,
  hidden: Boolean(row.health_hidden),
});

/** One live tool by slug, or undefined (taken down, not yet live, unknown). */
export async function getLiveTool(deps: Deps, slug: string): Promise<PublicTool | undefined> {
  const [row] = await liveToolBySlug.rows<PublicToolRow>(deps.db, { slug });
  return row ? toPublicTool(row, deps.origin) : undefined;
}
