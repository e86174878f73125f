import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { asCategory, type CategoryWithCount } from './categories';
import { isCategorySlug } from './category-rules';

/**
 * One category with its number of live tools (the count as GET /api/v1/categories reads it: the trigger-kept
 * live_tools), or undefined for an unknown or malformed slug. One statement.
 */
export async function findCategory(deps: Deps, slug: string): Promise<CategoryWithCount | undefined> {
  if (!isCategorySlug(slug)) return undefined;
  const [row] = await queryRows<CategoryWithCount>(
    deps.db,
    sql`SELECT c.slug, c.name, c.description, array_to_json(c.synonyms)::text AS synonyms, c.live_tools AS tool_count
        FROM categories c WHERE c.slug = ${slug}`,
  );
  return row && { ...asCategory(row), tool_count: Number(row.tool_count) };
}
