import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sponsorSlotHeld } from '../submissions/sponsor-slot';
import { mediaPath } from '../media/media-name';

/** A live tool as the public pages show it. */
export interface PublicTool {
  slug: string;
  name: string;
  url: string;
  live_url: string;
  is_feature: boolean;
  is_sponsor: boolean;
  published_at: string;
  title: string | null;
  description: string | null;
  /** Same-origin path of our own copy (`/media/{sha256}.{ext}`), or null: the page shows the placeholder. */
  image: string | null;
  icon: string | null;
}

const columns = sql`s.slug, s.name, s.url, s.live_url, s.is_feature, ${sponsorSlotHeld} AS is_sponsor,
  to_char(s.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS published_at,
  s.metadata->>'title' AS title, s.metadata->>'description' AS description,
  s.metadata->>'image' AS image, s.metadata->>'icon' AS icon`;

const normalise = (row: PublicTool): PublicTool => ({
  ...row,
  is_feature: Boolean(row.is_feature),
  is_sponsor: Boolean(row.is_sponsor),
  image: mediaPath(row.image),
  icon: mediaPath(row.icon),
});

/** Live tools for the home page: sponsored first, then featured, then newest. (Search: src/directory/search.ts.) */
export async function listLiveTools(deps: Deps, options: { limit?: number } = {}): Promise<PublicTool[]> {
  const rows = await queryRows<PublicTool>(
    deps.db,
    sql`SELECT ${columns} FROM sites s
        WHERE s.status = 'live'
        ORDER BY ${sponsorSlotHeld} DESC, s.is_feature DESC, s.published_at DESC, s.id
        LIMIT ${options.limit ?? 100}`,
  );
  return rows.map(normalise);
}

/** One live tool by slug, or undefined (taken down, not yet live, unknown). */
export async function getLiveTool(deps: Deps, slug: string): Promise<PublicTool | undefined> {
  const [row] = await queryRows<PublicTool>(deps.db, sql`SELECT ${columns} FROM sites s WHERE s.slug = ${slug} AND s.status = 'live'`);
  return row ? normalise(row) : undefined;
}
