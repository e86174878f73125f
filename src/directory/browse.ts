import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { sponsorSlotHeld } from './sponsor-slot';
import { SPONSOR_SLOTS } from '../catalog/plans';
import { toolColumns, toToolCard, type ToolCard, type ToolRow } from './tool-record';
import { decodeCursor, encodeCursor, type SearchPosition } from './search-cursor';
import { categoryFilter, newestStatement } from './search-statements';
import { fromMicros, sortAt, sortMicros } from './search-keys';

// The directory as people browse it (the home page and /categories/{slug}, docs/pages.md): the sponsored slot,
// then the newest live tools, 24 per page, keyset-paged both ways. One SQL statement per page.

export const BROWSE_PAGE_SIZE = 24;
/** At most this many sponsored tools head the first page (a plan fact: src/catalog/plans.ts). */
export { SPONSOR_SLOTS };

export interface BrowseInput {
  /** Only the tools of this category (the caller has checked that it exists). */
  category?: string;
  /** Cursor of the last card of the previous page: read older tools. */
  after?: string;
  /** Cursor of the first card of the following page: read newer tools. */
  before?: string;
}

export interface BrowsePage {
  /** The sponsored slot: on the first page only, and never repeated in `tools`. */
  sponsored: ToolCard[];
  /** Newest first. */
  tools: ToolCard[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  next: string | null;
  /** Pass as `before` for the previous (newer) page; null on the first page. */
  prev: string | null;
  /** A `before` read reached the newest tool: the first page (no cursor) is the page to show. */
  atStart: boolean;
}

type Row = ToolRow & { sort_micros: string; sort_id: string };

/** A cursor pages one list: the home page's or one category's (its fingerprint; docs/pages.md). */
const cursorKey = (category: string | undefined) => `\u0001browse\u0000${category ?? ''}`;

function readCursor(category: string | undefined, name: 'after' | 'before', cursor: string): SearchPosition {
  let position: SearchPosition;
  try {
    position = decodeCursor(cursorKey(category), cursor);
  } catch {
    throw new ServiceError(
      'invalid_request',
      `${name}: this page link is malformed or belongs to another list; start again from the first page.`,
      {
        field: name,
      },
    );
  }
  if (position.mode !== 'newest') {
    throw new ServiceError(
      'invalid_request',
      `${name}: this page link belongs to another list; start again from the first page.`,
      { field: name },
    );
  }
  return position;
}

const cursorOf = (category: string | undefined, row: Row) =>
  encodeCursor(cursorKey(category), {
    mode: 'newest',
    tier: null,
    publishedMicros: String(row.sort_micros),
    id: row.sort_id,
  });

/** The sponsored slot (newest first), in the same columns as newestStatement so the two can be one UNION. */
function sponsorStatement(filter: SQL): SQL {
  return sql`SELECT ${toolColumns}, NULL AS tier, 'newest' AS mode, ${sortMicros(sortAt)} AS sort_micros, s.id AS sort_id
    FROM sites s WHERE s.status = 'live' AND ${sponsorSlotHeld}${filter}
    ORDER BY ${sortAt} DESC, s.id DESC LIMIT ${SPONSOR_SLOTS}`;
}

/** The `take` tools listed just after `before` (oldest first: the caller reverses), by the same index backwards. */
function newerStatement(take: number, before: SearchPosition, filter: SQL): SQL {
  return sql`WITH page AS (
      SELECT s.id, ${sortAt} AS sort_at FROM sites s WHERE s.status = 'live'${filter}
        AND (${sortAt}, s.id) > (${fromMicros(before.publishedMicros)}, ${before.id}::uuid)
      ORDER BY ${sortAt} ASC, s.id ASC LIMIT ${take}
    )
    SELECT ${toolColumns}, NULL AS tier, 'newest' AS mode, ${sortMicros(sql`p.sort_at`)} AS sort_micros, p.id AS sort_id
    FROM page p JOIN sites s ON s.id = p.id ORDER BY p.sort_at ASC, p.id ASC`;
}

/**
 * One page of live tools, newest first (a core verb). A tool holding its sponsor slot heads the first page and
 * is left out of the list, so it is never shown twice. Keyset pagination on (listed time, id): tools that go
 * live while someone pages can only appear before the page they are on, so following `next` neither repeats
 * nor skips a tool. A malformed or forged cursor is invalid_request.
 */
export async function browseTools({ deps, input }: { deps: Deps; input: BrowseInput }): Promise<BrowsePage> {
  const { category } = input;
  if (input.after !== undefined && input.before !== undefined) {
    throw new ServiceError('invalid_request', 'Pass either after or before, not both.');
  }
  const after = input.after !== undefined ? readCursor(category, 'after', input.after) : undefined;
  const before = input.before !== undefined ? readCursor(category, 'before', input.before) : undefined;
  const filter = sql`${categoryFilter(category)} AND NOT ${sponsorSlotHeld}`;
  const take = BROWSE_PAGE_SIZE + 1; // one more than a page tells whether there is a page beyond

  if (before) {
    const rows = await queryRows<Row>(deps.db, newerStatement(take, before, filter));
    if (rows.length < take) return { sponsored: [], tools: [], next: null, prev: null, atStart: true };
    const page = rows.slice(0, BROWSE_PAGE_SIZE).reverse();
    return {
      sponsored: [],
      tools: page.map(toToolCard),
      next: cursorOf(category, page.at(-1)!),
      prev: cursorOf(category, page[0]!),
      atStart: false,
    };
  }

  const list = newestStatement(take, after, filter);
  const rows = await queryRows<Row>(
    deps.db,
    after ? list : sql`(${sponsorStatement(categoryFilter(category))}) UNION ALL (${list})`,
  );
  // The list excludes sponsors in the same statement, so is_sponsor tells the two parts apart.
  const sponsored = rows.filter((r) => r.is_sponsor);
  const listed = rows.filter((r) => !r.is_sponsor);
  const page = listed.slice(0, BROWSE_PAGE_SIZE);
  const prev = !after ? null : page[0] ? cursorOf(category, page[0]) : encodeCursor(cursorKey(category), after);
  return {
    sponsored: sponsored.map(toToolCard),
    tools: page.map(toToolCard),
    next: listed.length > BROWSE_PAGE_SIZE ? cursorOf(category, page.at(-1)!) : null,
    prev,
    atStart: false,
  };
}
