import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { ServiceError } from '../errors';
import { LISTING_CHANGE_RETENTION_DAYS, type ListingChangeKind } from '../catalog/listing-change-kinds';
import { toolColumns, toolHealthColumns, toToolDetail, type ToolDetail, type ToolRow } from './tool-record';
import { decodeCursor, encodeCursor, positionBefore, type ChangePosition } from './change-cursor';
import { mcpJoin, toolMcpColumns, type ToolMcpRow } from './mcp-record';

// The change feed of the directory (docs/change-feed.md): every listing that appeared, changed or left, oldest
// first, from the rows the triggers of drizzle/*_listing_changes.sql write. Public: no actor.

export const DEFAULT_CHANGES_PAGE = 100;
export const MAX_CHANGES_PAGE = 500;

/** One entry of the feed. */
export interface ListingChange {
  /** Pass as since to continue after this entry. */
  cursor: string;
  kind: ListingChangeKind;
  changed_at: string;
  site_id: string;
  /** The listing's slug when it changed (for `left`: the slug it had). */
  slug: string | null;
  /** The slug before this change, when it renamed the listing; null otherwise. */
  previous_slug: string | null;
  /** The listing as it is now (what GET /api/v1/tools/{slug} answers), or null when it is not listed now. */
  tool: ToolDetail | null;
}

export interface ChangesPage {
  changes: ListingChange[];
  /** Pass as since for the entries after these (the same cursor again when there are none yet). */
  next_cursor: string;
  /** True when more entries are ready now: ask again at once. */
  has_more: boolean;
}

export interface ChangesInput {
  /** A cursor, `now`, or undefined (from the oldest change kept). */
  since?: string;
  limit?: number;
}

/** What a mirror does when its cursor is refused. */
export const RESYNC = 'Resync: read the listings from GET /api/v1/tools, then follow the feed from since=now.';

/** The answer to a since that is no cursor of this feed. */
export const MALFORMED = `since is malformed: pass a cursor this feed gave (next_cursor or an entry's cursor), or now. ${RESYNC}`;

const refuse = (message: string) => new ServiceError('invalid_request', message, { field: 'since' });

interface Bounds {
  horizon_xid: string;
  horizon_id: string;
  /** Every transaction id at or above this had not begun when the statement ran. */
  xmax: string;
  /** The newest change id handed out (0 before the first). */
  last_id: string;
  /** The position of the newest change a reader may serve now (null when none is kept). */
  ready_xid: string | null;
  ready_id: string | null;
}

/**
 * What a cursor is checked against, in one statement: the retention horizon, the newest transaction and change
 * id there could be, and the newest servable position (for since=now).
 */
const readBounds = (deps: Deps) =>
  queryRows<Bounds>(
    deps.db,
    sql`SELECT h.position_xid::text AS horizon_xid, h.change_id::text AS horizon_id,
      pg_snapshot_xmax(pg_current_snapshot())::text AS xmax,
      (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM listing_changes_id_seq)::text AS last_id,
      r.position_xid::text AS ready_xid, r.id::text AS ready_id
    FROM listing_change_horizon h
    LEFT JOIN LATERAL (SELECT c.position_xid, c.id FROM listing_changes c
      WHERE c.position_xid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY c.position_xid DESC, c.id DESC LIMIT 1) r ON true`,
  );

/** The position to read after, or a 400 saying what is wrong with since and what to do. */
function startOf(since: string | undefined, bounds: Bounds): ChangePosition {
  const horizon = { xid: bounds.horizon_xid, id: bounds.horizon_id };
  if (since === undefined) return horizon;
  if (since === 'now')
    return bounds.ready_xid && bounds.ready_id ? { xid: bounds.ready_xid, id: bounds.ready_id } : horizon;
  const position = decodeCursor(since);
  if (!position) throw refuse(MALFORMED);
  if (BigInt(position.xid) >= BigInt(bounds.xmax) || BigInt(position.id) > BigInt(bounds.last_id))
    throw refuse(`since is from the future: no change at that position has been written. ${RESYNC}`);
  if (positionBefore(position, horizon))
    throw refuse(
      `since is too old: changes after it were deleted (the feed keeps ${LISTING_CHANGE_RETENTION_DAYS} days). ${RESYNC}`,
    );
  return position;
}

type ChangeRow = ToolRow &
  ToolMcpRow & {
    change_id: string;
    change_xid: string;
    kind: ListingChangeKind;
    change_site_id: string;
    change_slug: string | null;
    previous_slug: string | null;
    changed_at: string;
    /** The site's id when it is listed now (the join found it), else null. */
    listed_id: string | null;
  };

/**
 * The changes after a position, oldest first: only those whose position is below the oldest transaction still
 * running, so no change can ever commit before one already served (docs/change-feed.md "Order"). Each with the
 * listing as it is now, joined in the same statement.
 */
const readAfter = (deps: Deps, after: ChangePosition, limit: number) =>
  queryRows<ChangeRow>(
    deps.db,
    sql`SELECT c.id::text AS change_id, c.position_xid::text AS change_xid, c.kind, c.site_id AS change_site_id,
      c.slug AS change_slug, c.previous_slug, ${isoTimestamp(sql`c.changed_at`)} AS changed_at, s.id AS listed_id,
      ${toolColumns}, ${toolHealthColumns}, ${toolMcpColumns}
    FROM (SELECT * FROM listing_changes c
      WHERE (c.position_xid, c.id) > (${after.xid}::xid8, ${after.id}::bigint)
        AND c.position_xid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY c.position_xid, c.id LIMIT ${limit + 1}) c
    LEFT JOIN sites s ON s.id = c.site_id AND s.status = 'live' AND NOT s.health_hidden
    LEFT JOIN site_health h ON h.site_id = s.id
    ${mcpJoin}
    ORDER BY c.position_xid, c.id`,
  );

/** One page of the change feed (a core verb; public, so no actor). */
export async function listChanges({ deps, input }: { deps: Deps; input: ChangesInput }): Promise<ChangesPage> {
  const limit = input.limit ?? DEFAULT_CHANGES_PAGE;
  const [bounds] = await readBounds(deps);
  if (!bounds) throw new Error('listing_change_horizon has no row');
  const start = startOf(input.since, bounds);
  if (input.since === 'now') return { changes: [], next_cursor: encodeCursor(start), has_more: false };
  const rows = await readAfter(deps, start, limit);
  const changes = rows.slice(0, limit).map((row) => toChange(row, deps.origin));
  return {
    changes,
    next_cursor: changes.length ? changes[changes.length - 1]!.cursor : encodeCursor(start),
    has_more: rows.length > limit,
  };
}

function toChange(row: ChangeRow, origin: string): ListingChange {
  return {
    cursor: encodeCursor({ xid: row.change_xid, id: row.change_id }),
    kind: row.kind,
    changed_at: row.changed_at,
    site_id: row.change_site_id,
    slug: row.change_slug,
    previous_slug: row.previous_slug,
    tool: row.listed_id ? toToolDetail({ ...row, site_id: row.listed_id }, origin) : null,
  };
}
