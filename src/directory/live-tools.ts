import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sponsorSlotHeld } from '../submissions/sponsor-slot';
import { mediaPath } from '../media/media-name';
import { toolColumns, toToolDetail, type ToolDetail, type ToolRow } from './tool-record';

// Live tools as the public HTML pages read them: the same columns and shape as GET /api/v1/tools/{slug} and
// get_tool (./tool-record.ts), so a tool's page and its API record cannot disagree. (Search: ./search.ts.)

/**
 * A live tool as the public pages show it: the API's tool detail, plus the crawled page title; image and icon
 * are same-origin paths of our own copies (`/media/{sha256}.{ext}`, docs/media.md) where the API has absolute URLs.
 */
export type PublicTool = ToolDetail & { title: string | null };

const columns = sql`${toolColumns}, s.metadata->>'title' AS title`;

type PublicToolRow = ToolRow & { title: string | null };

const toPublicTool = (row: PublicToolRow, origin: string): PublicTool => ({
  ...toToolDetail(row, origin),
  image: mediaPath(row.image),
  icon: mediaPath(row.icon),
  title: row.title,
});

/** Live tools for the home page: sponsored first, then featured, then newest. */
export async function listLiveTools(deps: Deps, options: { limit?: number } = {}): Promise<PublicTool[]> {
  const rows = await queryRows<PublicToolRow>(
    deps.db,
    sql`SELECT ${columns} FROM sites s
        WHERE s.status = 'live'
        ORDER BY ${sponsorSlotHeld} DESC, s.is_feature DESC, s.published_at DESC, s.id
        LIMIT ${options.limit ?? 100}`,
  );
  return rows.map((row) => toPublicTool(row, deps.origin));
}

/** One live tool by slug, or undefined (taken down, not yet live, unknown). */
export async function getLiveTool(deps: Deps, slug: string): Promise<PublicTool | undefined> {
  const [row] = await queryRows<PublicToolRow>(deps.db, sql`SELECT ${columns} FROM sites s WHERE s.slug = ${slug} AND s.status = 'live'`);
  return row ? toPublicTool(row, deps.origin) : undefined;
}
