import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { isCategorySlug } from './category-rules';

// The operator's verbs over categories and the public list (docs/mcp-and-search.md "Categories").
// Each is one statement.

export interface Category {
  slug: string;
  name: string;
  description: string | null;
  /** Other words that find the category's tools in search (lower-case single words). */
  synonyms: string[];
}

export interface CategoryWithCount extends Category {
  /** Live tools in the category. */
  tool_count: number;
}

const notFound = (slug: string) => new ServiceError('not_found', `No category with slug "${slug}".`);

/** The columns of a Category (the array as JSON text, so every driver reads it alike; asCategory parses it). */
const categoryColumns = sql`slug, name, description, array_to_json(synonyms)::text AS synonyms`;
export const asCategory = <T extends { synonyms: string[] | string }>(row: T): T & { synonyms: string[] } => ({
  ...row,
  synonyms: typeof row.synonyms === 'string' ? (JSON.parse(row.synonyms) as string[]) : row.synonyms,
});

/** Creates a category; a slug already taken is a 409 conflict. */
export async function createCategory({ deps, input }: { deps: Deps; input: Category }): Promise<Category> {
  const [row] = await queryRows<Category>(
    deps.db,
    sql`INSERT INTO categories (slug, name, description, synonyms)
        VALUES (${input.slug}, ${input.name}, ${input.description}, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(input.synonyms)}::jsonb)))
        ON CONFLICT (slug) DO NOTHING RETURNING ${categoryColumns}`,
  );
  if (!row) throw new ServiceError('conflict', `A category with slug "${input.slug}" already exists.`);
  return asCategory(row);
}

/**
 * Changes the name, description and/or synonyms (a new list replaces the old one); the slug stays (it is in every tool's
 * record and in links).
 */
export async function updateCategory({
  deps,
  slug,
  input,
}: {
  deps: Deps;
  slug: string;
  input: { name?: string; description?: string | null; synonyms?: string[] };
}): Promise<Category> {
  if (!isCategorySlug(slug)) throw notFound(slug);
  const [row] = await queryRows<Category>(
    deps.db,
    sql`UPDATE categories SET
          name = coalesce(${input.name ?? null}::text, name),
          description = CASE WHEN ${input.description !== undefined} THEN ${input.description ?? null}::text ELSE description END,
          synonyms = CASE WHEN ${input.synonyms !== undefined}
            THEN ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(input.synonyms ?? [])}::jsonb)) ELSE synonyms END
        WHERE slug = ${slug} RETURNING ${categoryColumns}`,
  );
  if (!row) throw notFound(slug);
  return asCategory(row);
}

/**
 * Deletes a category no site is in (any status: a queued or rejected tool keeps its categories for a later
 * review). A used one is a 409 that says how many tools use it. The foreign key of site_categories backs the
 * check up against a tool being put into the category at the same moment (then this statement fails instead).
 */
export async function deleteCategory({ deps, slug }: { deps: Deps; slug: string }): Promise<void> {
  if (!isCategorySlug(slug)) throw notFound(slug);
  let row: { found: number; used: number | null; deleted: number } | undefined;
  try {
    [row] = await queryRows(
      deps.db,
      sql`WITH target AS (
            SELECT c.slug, (SELECT count(*) FROM site_categories sc WHERE sc.category_slug = c.slug)::int AS used
            FROM categories c WHERE c.slug = ${slug}
          ), deleted AS (
            DELETE FROM categories c USING target t WHERE c.slug = t.slug AND t.used = 0 RETURNING c.slug
          )
          SELECT (SELECT count(*) FROM target)::int AS found, (SELECT used FROM target) AS used,
            (SELECT count(*) FROM deleted)::int AS deleted`,
    );
  } catch (error) {
    if (isForeignKeyViolation(error)) throw inUse(slug, null);
    throw error;
  }
  if (!row || Number(row.found) === 0) throw notFound(slug);
  if (Number(row.deleted) === 0) throw inUse(slug, Number(row.used));
}

const inUse = (slug: string, used: number | null) =>
  new ServiceError(
    'conflict',
    `Category "${slug}" is in use${used ? ` by ${used} tool${used === 1 ? '' : 's'}` : ''}; take it off those tools (review them with other categories) before deleting it.`,
  );

/** PostgreSQL's foreign_key_violation, wherever the driver put the code (drizzle wraps it in `cause`). */
export function isForeignKeyViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if ((e as { code?: string }).code === '23503') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Every category with its number of live tools, by name (the public list, REST and MCP). */
export async function listCategories({ deps }: { deps: Deps }): Promise<{ categories: CategoryWithCount[] }> {
  // live_tools is kept by a trigger (drizzle/0029_listing_version.sql): counting the live tools of every category
  // here took ~240 ms of database time per call at 10,000 tools (docs/bench.md "Public pages under load").
  const rows = await queryRows<CategoryWithCount>(
    deps.db,
    sql`SELECT c.slug, c.name, c.description, array_to_json(c.synonyms)::text AS synonyms, c.live_tools AS tool_count
        FROM categories c ORDER BY lower(c.name), c.slug`,
  );
  return { categories: rows.map((r) => ({ ...asCategory(r), tool_count: Number(r.tool_count) })) };
}

/**
 * The slugs of `wanted` that name no category, in the order given (one read). Submit and review call it
 * before they change anything, so an unknown slug is a 400 that names it and nothing else happens.
 */
export async function unknownCategories(deps: Deps, wanted: readonly string[]): Promise<string[]> {
  if (wanted.length === 0) return [];
  const rows = await queryRows<{ slug: string }>(
    deps.db,
    sql`SELECT u.slug FROM jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb) WITH ORDINALITY AS u(slug, n)
        WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE c.slug = u.slug) ORDER BY u.n`,
  );
  return rows.map((r) => r.slug);
}

/**
 * Runs a statement that puts a site into checked categories; if one of them was deleted by an operator at that
 * very moment (the statement then fails on site_categories' foreign key and changes nothing), answers 409.
 */
export async function withCategoriesInPlace<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ServiceError(
        'conflict',
        'categories: a chosen category was deleted just now; nothing was changed. Choose again from GET /api/v1/categories.',
        { field: 'categories' },
      );
    }
    throw error;
  }
}

/** Throws invalid_request naming the unknown slugs, if any. */
export async function requireKnownCategories(deps: Deps, wanted: readonly string[] | undefined): Promise<void> {
  const unknown = await unknownCategories(deps, wanted ?? []);
  if (unknown.length > 0) {
    throw new ServiceError(
      'invalid_request',
      `categories: unknown category ${unknown.map((s) => `"${s}"`).join(', ')}; GET /api/v1/categories (MCP list_categories) lists the slugs.`,
      { field: 'categories', values: unknown },
    );
  }
}
