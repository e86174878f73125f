import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';

/**
 * Replaces a site's categories with `wanted` in one statement, only while the editor's decision applies to
 * the site (`applies`: the decision's condition on a site aliased `s`, src/pipeline/decision-conditions.ts). Run before the decision, so a refused decision (409) changes nothing and
 * a retry after a lost answer sets the same categories again. Slugs must have been checked (requireKnownCategories);
 * one deleted in between is left out. Returns false when the decision does not apply (nothing changed).
 */
export async function setSiteCategoriesForDecision(
  deps: Deps,
  siteId: string,
  applies: SQL,
  wanted: readonly string[],
): Promise<boolean> {
  const [row] = await queryRows<{ found: number }>(
    deps.db,
    sql`WITH target AS (
          SELECT s.id FROM sites s WHERE s.id = ${siteId}::uuid AND ${applies}
        ), wanted AS (
          SELECT c.slug FROM categories c WHERE c.slug IN (SELECT jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb))
        ), dropped AS (
          DELETE FROM site_categories sc USING target t
          WHERE sc.site_id = t.id AND sc.category_slug NOT IN (SELECT slug FROM wanted)
        ), added AS (
          INSERT INTO site_categories (site_id, category_slug)
          SELECT t.id, w.slug FROM target t CROSS JOIN wanted w
          ON CONFLICT DO NOTHING
        )
        SELECT count(*)::int AS found FROM target`,
  );
  return Number(row?.found ?? 0) > 0;
}

/** The category slugs of each of `siteIds` (for the editor's page), one read. */
export async function categorySlugsOfSites(deps: Deps, siteIds: readonly string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (siteIds.length === 0) return map;
  const rows = await queryRows<{ site_id: string; slug: string }>(
    deps.db,
    sql`SELECT sc.site_id, sc.category_slug AS slug FROM site_categories sc
        WHERE sc.site_id IN (SELECT (jsonb_array_elements_text(${JSON.stringify(siteIds)}::jsonb))::uuid)
        ORDER BY sc.site_id, sc.category_slug`,
  );
  for (const r of rows) map.set(r.site_id, [...(map.get(r.site_id) ?? []), r.slug]);
  return map;
}
