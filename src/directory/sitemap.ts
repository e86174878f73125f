import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import type { SitemapEntry } from './sitemap-xml';
import { compareListed, decodeListedKey, listedAt, listedKeyText, type ListedKey } from './sitemap-keys';

// What /sitemap.xml and its children list (docs/seo.md): the home page, every category with a live tool and
// every live tool, each with the time its public page last changed. Each answer is ONE statement.

/** The protocol's limit of URLs per sitemap file (sitemaps.org); tests pass a lower one. */
export const SITEMAP_MAX_URLS = 50_000;

/** How many URLs one sitemap file may hold; tests lower it to reach the index form without 50,000 tools. */
export interface SitemapOptions {
  maxUrls?: number;
}

/**
 * When a tool's public page last changed: it went live (or was republished), or an editor approved an edit of
 * its name or description (docs/pipeline.md "Edits"). Metadata and categories change only on the way to live.
 */
const toolLastmod = sql`greatest(s.status_changed_at, s.published_at,
  (SELECT max(e.decided_at) FROM site_edits e WHERE e.site_id = s.id AND e.status = 'approved'))`;

/** A live tool, or one taken down (its leaving changed the lists it was on). */
const listedOrTakenDown = sql`(s.status = 'live' OR (s.status = 'rejected' AND s.published_at IS NOT NULL))`;

/** The home page lists every live tool: its newest change, or the newest takedown. Index scans only. */
const homeLastmod = sql`greatest(
  (SELECT max(s.status_changed_at) FROM sites s WHERE s.status = 'live'),
  (SELECT max(s.status_changed_at) FROM sites s WHERE s.status = 'rejected' AND s.published_at IS NOT NULL),
  (SELECT max(e.decided_at) FROM site_edits e JOIN sites s ON s.id = e.site_id WHERE e.status = 'approved' AND s.status = 'live'))`;

/** Categories with at least one live tool, with the newest change among their tools (taken-down ones too). */
const categoryRows = (gate: SQL, limit: number) => sql`
  SELECT 1 AS part, c.slug, max(${toolLastmod}) AS lastmod, NULL::text AS first_key, 0::bigint AS pos
  FROM categories c JOIN site_categories sc ON sc.category_slug = c.slug JOIN sites s ON s.id = sc.site_id
  WHERE ${listedOrTakenDown} AND ${gate}
  GROUP BY c.slug HAVING bool_or(s.status = 'live')
  ORDER BY c.slug LIMIT ${limit}`;

const homeRow = sql`SELECT 0 AS part, NULL::text AS slug, ${homeLastmod} AS lastmod, NULL::text AS first_key, 0::bigint AS pos`;

interface Row {
  part: number | string;
  slug: string | null;
  lastmod: string | null;
  first_key: string | null;
  pos: number | string;
}

const sorted = (parts: SQL) =>
  sql`SELECT u.part, u.slug, ${isoTimestamp(sql`u.lastmod`)} AS lastmod, u.first_key, u.pos FROM (${parts}) u ORDER BY u.part, u.pos, u.slug`;

export const homeUrl = (origin: string) => `${origin}/`;
export const categoryUrl = (origin: string, slug: string) => `${origin}/categories/${encodeURIComponent(slug)}`;
export const toolUrl = (origin: string, slug: string) => `${origin}/tools/${encodeURIComponent(slug)}`;

function pageEntries(rows: Row[], origin: string): SitemapEntry[] {
  return rows.map((r) => {
    const part = Number(r.part);
    const loc = part === 0 ? homeUrl(origin) : part === 1 ? categoryUrl(origin, r.slug!) : toolUrl(origin, r.slug!);
    return { loc, lastmod: r.lastmod };
  });
}

/** /sitemap.xml: every URL, or past `maxUrls` the index of child sitemaps (./sitemap-children.ts names them). */
export type SitemapRoot =
  | { kind: 'urlset'; urls: SitemapEntry[] }
  | { kind: 'index'; home: string | null; chunks: ToolChunk[] };

/** One child sitemap of tools: where it starts in the listed order and its newest change. */
export interface ToolChunk {
  first: ListedKey;
  lastmod: string | null;
}

/**
 * The root in one statement: counts decide the form inside the database, and only the chosen form's rows are
 * read (the other branches are gated off by a one-time filter). In the index form the tools are numbered in
 * the listed order and cut every `maxUrls` rows; each chunk's first key becomes its child's address.
 */
export async function readSitemapRoot(deps: Deps, maxUrls = SITEMAP_MAX_URLS): Promise<SitemapRoot> {
  const indexed = sql`(SELECT indexed FROM form)`;
  const rows = await queryRows<Row>(
    deps.db,
    sql`WITH form AS (
          SELECT (SELECT count(*) FROM sites s WHERE s.status = 'live')
            + (SELECT count(DISTINCT sc.category_slug) FROM site_categories sc JOIN sites s ON s.id = sc.site_id WHERE s.status = 'live')
            + 1 > ${maxUrls} AS indexed
        ), ranked AS (
          SELECT row_number() OVER (ORDER BY ${listedAt}, s.id) - 1 AS rn, ${toolLastmod} AS lastmod, ${listedKeyText} AS key
          FROM sites s WHERE s.status = 'live' AND ${indexed}
        ), chunked AS (
          SELECT r.rn / ${maxUrls}::bigint AS chunk, r.rn % ${maxUrls}::bigint = 0 AS starts, r.lastmod, r.key FROM ranked r
        )
        ${sorted(sql`${homeRow}
          UNION ALL (${categoryRows(sql`NOT ${indexed}`, maxUrls)})
          UNION ALL SELECT 2, s.slug, ${toolLastmod}, NULL, row_number() OVER (ORDER BY ${listedAt}, s.id)
            FROM sites s WHERE s.status = 'live' AND NOT ${indexed}
          UNION ALL SELECT 3, NULL, max(k.lastmod), min(k.key) FILTER (WHERE k.starts), k.chunk
            FROM chunked k GROUP BY k.chunk`)}`,
  );
  const home = rows.find((r) => Number(r.part) === 0)?.lastmod ?? null;
  const chunks = rows.filter((r) => Number(r.part) === 3);
  if (chunks.length === 0) return { kind: 'urlset', urls: pageEntries(rows, deps.origin) };
  return {
    kind: 'index',
    home,
    chunks: chunks.map((r) => ({ first: decodeListedKey(r.first_key!)!, lastmod: r.lastmod })),
  };
}

/** The home page and the categories with a live tool (the index form's first child). */
export async function readSitemapPages(deps: Deps, maxUrls = SITEMAP_MAX_URLS): Promise<SitemapEntry[]> {
  const rows = await queryRows<Row>(
    deps.db,
    sorted(sql`${homeRow} UNION ALL (${categoryRows(sql`true`, maxUrls - 1)})`),
  );
  return pageEntries(rows, deps.origin);
}

/**
 * One child of tools: at most `maxUrls` live tools from `from` (the start when absent) up to, not including,
 * `to` (the next child's first key; open for the last child). The bounds are keys, not offsets, so a child's
 * content never shifts when a tool before it is published or taken down, and no tool is in two children.
 */
export async function readSitemapTools(
  deps: Deps,
  bounds: { from?: ListedKey; to?: ListedKey },
  maxUrls = SITEMAP_MAX_URLS,
): Promise<SitemapEntry[]> {
  const rows = await queryRows<{ slug: string; lastmod: string | null }>(deps.db, toolsChildStatement(bounds, maxUrls));
  return rows.map((r) => ({ loc: toolUrl(deps.origin, r.slug), lastmod: r.lastmod }));
}

/** The statement of one tools child (exported for the test that checks it is a range scan of the listed index). */
export const toolsChildStatement = (bounds: { from?: ListedKey; to?: ListedKey }, maxUrls: number): SQL =>
  sql`SELECT s.slug, ${isoTimestamp(toolLastmod)} AS lastmod FROM sites s
      WHERE s.status = 'live'${bounds.from ? sql` AND ${compareListed('>=', bounds.from)}` : sql``}${bounds.to ? sql` AND ${compareListed('<', bounds.to)}` : sql``}
      ORDER BY ${listedAt}, s.id LIMIT ${maxUrls}`;
