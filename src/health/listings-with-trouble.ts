// The operator's list of live listings whose daily check fails or that moved (docs/health.md "Operators"), oldest
// trouble first: read from site_health_attention_idx, never a scan of every live tool.
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import type { Deps } from '../deps';
import { publicHealth, type PublicHealth } from '../catalog/health-states';

export interface TroubledListing {
  site_id: string;
  name: string;
  url: string;
  live_url: string | null;
  hidden: boolean;
  health: PublicHealth;
}

/** At most `limit` live listings that are failing or moved, the longest-failing first. */
export async function listListingsWithTrouble(deps: Deps, limit = 100): Promise<TroubledListing[]> {
  const rows = await queryRows<Record<string, unknown>>(
    deps.db,
    sql`SELECT s.id AS site_id, s.name, s.url, s.live_url, s.health_hidden, h.state, h.reason_kind, h.http_status, h.moved_to,
          ${isoTimestamp(sql`h.last_checked_at`)} AS last_checked_at, ${isoTimestamp(sql`h.last_ok_at`)} AS last_ok_at,
          ${isoTimestamp(sql`h.failing_since`)} AS failing_since
        FROM site_health h JOIN sites s ON s.id = h.site_id
        WHERE h.state IN ('failing', 'moved') AND s.status = 'live'
        ORDER BY h.failing_since LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    site_id: String(row.site_id),
    name: String(row.name),
    url: String(row.url),
    live_url: (row.live_url as string | null) ?? null,
    hidden: Boolean(row.health_hidden),
    health: publicHealth(row as Parameters<typeof publicHealth>[0]),
  }));
}
