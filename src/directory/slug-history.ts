import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { preparedStatement } from '../db/prepared';
import { isoTimestamp } from '../db/sql-format';
import { formatDate } from '../display-time';
import { ServiceError } from '../errors';
import { getTool, type ToolRef } from './get-tool';
import type { ToolDetail } from './tool-record';

// What a slug that names no live tool still means (docs/pipeline.md "Renames", "Withdrawal"): the old address of a
// renamed tool (301 to its current slug) or the address of a listing its owner withdrew (410). Read only after the
// live lookup missed, so the pages' hot path gains no statement.

/** Slugs are lower-case words joined by hyphens (src/pipeline/slug.ts); anything else was never one. */
const SLUG_SHAPE = /^[a-z0-9-]{1,100}$/;

export type SlugFate = { kind: 'moved'; slug: string } | { kind: 'withdrawn'; name: string; withdrawn_at: string };

/** Built once per process (src/db/prepared.ts): one primary-key lookup in the slug history and the site it names. */
const fateOf = preparedStatement<'slug'>(
  (p) => sql`SELECT s.slug, s.name, s.status, ${isoTimestamp(sql`s.withdrawn_at`)} AS withdrawn_at
    FROM site_slugs h JOIN sites s ON s.id = h.site_id WHERE h.slug = ${p('slug')}`,
);

/**
 * Where a slug went: `moved` when it is an old slug of a tool that is live under another one, `withdrawn` when it
 * is (or was) the slug of a listing its owner withdrew; undefined for anything else (unknown, in review, taken
 * down by an editor), which stays the same 404 as before.
 */
export async function slugFate(deps: Deps, slug: string): Promise<SlugFate | undefined> {
  if (!SLUG_SHAPE.test(slug)) return undefined;
  const [row] = await fateOf.rows<{ slug: string | null; name: string; status: string; withdrawn_at: string | null }>(
    deps.db,
    { slug },
  );
  if (!row) return undefined;
  if (row.withdrawn_at) return { kind: 'withdrawn', name: row.name, withdrawn_at: row.withdrawn_at };
  if (row.status === 'live' && row.slug && row.slug !== slug) return { kind: 'moved', slug: row.slug };
  return undefined;
}

/** What a JSON or image address (and MCP) answers for a withdrawn listing: 410 gone, in words. */
export const withdrawnError = (fate: Extract<SlugFate, { kind: 'withdrawn' }>) =>
  new ServiceError(
    'gone',
    `${fate.name} was withdrawn from the directory by its owner on ${formatDate(fate.withdrawn_at)}.`,
  );

/**
 * getTool for callers that cannot follow a redirect (MCP get_tool): an old slug of a renamed tool answers the tool
 * under its current slug, a withdrawn listing is 410 gone, anything else not live stays not_found.
 */
export async function getToolFollowingRenames({ deps, input }: { deps: Deps; input: ToolRef }): Promise<ToolDetail> {
  try {
    return await getTool({ deps, input });
  } catch (error) {
    if (!('slug' in input) || !(error instanceof ServiceError) || error.code !== 'not_found') throw error;
    const fate = await slugFate(deps, input.slug);
    if (fate?.kind === 'withdrawn') throw withdrawnError(fate);
    if (fate?.kind === 'moved') return getTool({ deps, input: { slug: fate.slug } });
    throw error;
  }
}
