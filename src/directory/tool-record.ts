import { sql } from 'drizzle-orm';
import { isoTimestamp } from '../db/sql-format';
import { sponsorSlotHeld } from './sponsor-slot';
import { mediaPath, mediaUrl } from '../media/media-name';

// The public shapes of a listed (live) tool: what search results and get_tool return, on REST and MCP alike.

/** A category as a tool read carries it. */
export interface ToolCategory {
  slug: string;
  name: string;
}

/** One search hit: enough to show the tool in a list and to link to it. */
export interface ToolSummary {
  slug: string;
  name: string;
  url: string;
  /** The crawled description, shortened to one or two sentences; null when the page had none. */
  description: string | null;
  is_feature: boolean;
  is_sponsor: boolean;
  live_url: string | null;
  categories: ToolCategory[];
}

/** The detail of one live tool. */
export interface ToolDetail {
  site_id: string;
  slug: string;
  name: string;
  url: string;
  description: string | null;
  image: string | null;
  icon: string | null;
  is_feature: boolean;
  is_sponsor: boolean;
  live_url: string | null;
  published_at: string | null;
  categories: ToolCategory[];
}

/** Longest description a search result carries; get_tool returns the whole text. */
export const SHORT_DESCRIPTION_LENGTH = 160;

/**
 * The tool's categories by name, as a JSON array: the row's own category_slugs (a trigger-kept copy of its
 * site_categories rows) looked up in the small categories table, for the rows of one page only
 * (docs/mcp-and-search.md "Categories").
 */
const toolCategories = sql`coalesce((SELECT json_agg(json_build_object('slug', c.slug, 'name', c.name) ORDER BY lower(c.name), c.slug)
  FROM categories c WHERE c.slug = ANY (s.category_slugs)), '[]'::json)`;

/** Columns every tool read selects (alias `s` for sites). Timestamps leave the database already formatted. */
export const toolColumns = sql`s.id AS site_id, s.slug, s.name, s.url, s.metadata->>'description' AS description,
  s.metadata->>'image' AS image, s.metadata->>'icon' AS icon, s.is_feature, ${sponsorSlotHeld} AS is_sponsor, s.live_url,
  ${isoTimestamp(sql`s.published_at`)} AS published_at, ${toolCategories} AS categories`;

/** A row of `toolColumns`: the detail, except that the database allows a null slug and drivers may leave JSON as text. */
export type ToolRow = Omit<ToolDetail, 'slug' | 'categories'> & {
  slug: string | null;
  categories: ToolCategory[] | string | null;
};

function categoriesOf(row: ToolRow): ToolCategory[] {
  const value = typeof row.categories === 'string' ? (JSON.parse(row.categories) as ToolCategory[]) : row.categories;
  return (value ?? []).map((c) => ({ slug: c.slug, name: c.name }));
}

/** Cuts at a word boundary and marks the cut, so a result line never ends mid-word. */
export function shortenDescription(text: string | null, max = SHORT_DESCRIPTION_LENGTH): string | null {
  const clean = text?.replace(/\s+/g, ' ').trim();
  if (!clean) return null;
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

export function toToolSummary(row: ToolRow): ToolSummary {
  return {
    slug: row.slug ?? '',
    name: row.name,
    url: row.url,
    description: shortenDescription(row.description),
    is_feature: Boolean(row.is_feature),
    is_sponsor: Boolean(row.is_sponsor),
    live_url: row.live_url,
    categories: categoriesOf(row),
  };
}

/** `origin` (deps.origin) makes the image and icon absolute URLs of our own /media/ copies, never the tool's. */
export function toToolDetail(row: ToolRow, origin: string): ToolDetail {
  return {
    site_id: row.site_id,
    slug: row.slug ?? '',
    name: row.name,
    url: row.url,
    description: row.description?.trim() || null,
    image: mediaUrl(row.image, origin),
    icon: mediaUrl(row.icon, origin),
    is_feature: Boolean(row.is_feature),
    is_sponsor: Boolean(row.is_sponsor),
    live_url: row.live_url,
    published_at: row.published_at,
    categories: categoriesOf(row),
  };
}

/** What a card shows. Image and icon are same-origin /media/ paths of our own copies (docs/media.md), or null. */
export type ToolCard = Pick<
  ToolDetail,
  'slug' | 'name' | 'description' | 'image' | 'icon' | 'is_feature' | 'is_sponsor' | 'categories'
>;

/** A row as a card of the pages: the shortened description and our own /media/ paths of its pictures. */
export function toToolCard(row: ToolRow): ToolCard {
  const detail = toToolDetail(row, '');
  return {
    slug: detail.slug,
    name: detail.name,
    description: shortenDescription(detail.description),
    image: mediaPath(row.image),
    icon: mediaPath(row.icon),
    is_feature: detail.is_feature,
    is_sponsor: detail.is_sponsor,
    categories: detail.categories,
  };
}
