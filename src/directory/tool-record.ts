import { sql, type SQL } from 'drizzle-orm';
import { isoTimestamp } from '../db/sql-format';
import { sponsorSlotHeld } from './sponsor-slot';
import { mediaPath, mediaUrl } from '../media/media-name';
import { verifiedMark, verifiedMethodSql } from '../domains/verified-mark';
import type { ProofMethod } from '../domains/domain-record';
import { publicHealth, type PublicHealth } from '../catalog/health-states';
import { mcpOf, type PublicMcp, type ToolMcpRow } from './mcp-record';

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
  /** The "Verified maker" mark: present only on a marked listing (docs/ownership.md). */
  verified_owner?: true;
  verified_method?: ProofMethod;
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
  verified_owner?: true;
  verified_method?: ProofMethod;
  /** What the last re-check found (docs/health.md); `unchecked` until the first. */
  health: PublicHealth;
  /** The listing's MCP server and what its last probe found; null when it names none (./mcp-record.ts). */
  mcp: PublicMcp | null;
}

/** Longest description a search result carries; get_tool returns the whole text. */
export const SHORT_DESCRIPTION_LENGTH = 160;

/**
 * The tool's categories by name, as a JSON array: the row's own category_slugs (a trigger-kept copy of its
 * site_categories rows) looked up in the small categories table, for the rows of one page only
 * (docs/mcp-and-search.md "Categories").
 */
export const toolCategories = sql`coalesce((SELECT json_agg(json_build_object('slug', c.slug, 'name', c.name) ORDER BY lower(c.name), c.slug)
  FROM categories c WHERE c.slug = ANY (s.category_slugs)), '[]'::json)`;

/** Columns every tool read selects (alias `s` for sites). Timestamps leave the database already formatted. */
export const toolColumns = sql`s.id AS site_id, s.slug, s.name, s.url, s.metadata->>'description' AS description,
  s.metadata->>'image' AS image, s.metadata->>'icon' AS icon, s.is_feature, ${sponsorSlotHeld} AS is_sponsor, s.live_url,
  ${isoTimestamp(sql`s.published_at`)} AS published_at, ${toolCategories} AS categories, ${verifiedMethodSql} AS verified_method`;

/**
 * The health columns a detail read adds (alias `h` for a LEFT JOIN of site_health on s.id): one primary-key probe,
 * only for the one tool read.
 */
export const toolHealthColumns = sql`h.state AS health_state, h.reason_kind AS health_reason_kind, h.http_status AS health_http_status,
  h.moved_to AS health_moved_to, ${isoTimestamp(sql`h.last_checked_at`)} AS health_last_checked_at,
  ${isoTimestamp(sql`h.last_ok_at`)} AS health_last_ok_at, ${isoTimestamp(sql`h.failing_since`)} AS health_failing_since, s.health_hidden`;

/** The columns of toolHealthColumns, as a row carries them. */
export interface ToolHealthRow {
  health_state?: string | null;
  health_reason_kind?: string | null;
  health_http_status?: number | null;
  health_moved_to?: string | null;
  health_last_checked_at?: string | null;
  health_last_ok_at?: string | null;
  health_failing_since?: string | null;
  health_hidden?: boolean | null;
}

/** A detail row's health (unchecked when the row carries none: never checked, or read without the join). */
export function healthOf(row: ToolHealthRow): PublicHealth {
  return publicHealth({
    state: row.health_state ?? null,
    reason_kind: row.health_reason_kind ?? null,
    http_status: row.health_http_status ?? null,
    moved_to: row.health_moved_to ?? null,
    last_checked_at: row.health_last_checked_at ?? null,
    last_ok_at: row.health_last_ok_at ?? null,
    failing_since: row.health_failing_since ?? null,
  });
}

/**
 * The fields of a tool in a list (search), in order: what a summary and a card show, with the tool's category slugs
 * only (as one space-separated text: a slug has no space, and a text costs less to read than an array). The list's
 * statement names the categories once, in its meta row (./search-statements.ts), instead of a lookup per row. Both
 * forms below are made from this one list.
 */
const toolListFields: ReadonlyArray<readonly [keyof ToolListRow, SQL]> = [
  ['slug', sql`s.slug`],
  ['name', sql`s.name`],
  ['url', sql`s.url`],
  ['description', sql`s.metadata->>'description'`],
  ['image', sql`s.metadata->>'image'`],
  ['icon', sql`s.metadata->>'icon'`],
  ['is_feature', sql`s.is_feature`],
  ['is_sponsor', sponsorSlotHeld],
  ['live_url', sql`s.live_url`],
  ['category_slugs', sql`array_to_string(s.category_slugs, ' ')`],
  ['verified_method', verifiedMethodSql],
];

/** The list fields as named columns (alias `s` for sites). */
export const toolListColumns = sql.join(
  toolListFields.map(([name, value]) => sql`${value} AS ${sql.raw(name)}`),
  sql`, `,
);

/** The list fields' names, in the order `toolListValues` gives their values. */
export const toolListNames: ReadonlyArray<keyof ToolListRow> = toolListFields.map(([name]) => name);

/** The list fields' values, in order, without names: the elements of a packed row (json_build_array). */
export const toolListValues = sql.join(
  toolListFields.map(([, value]) => value),
  sql`, `,
);

/** A row of `toolListColumns`. */
export interface ToolListRow {
  slug: string | null;
  name: string;
  url: string;
  description: string | null;
  image: string | null;
  icon: string | null;
  is_feature: boolean;
  is_sponsor: boolean;
  live_url: string | null;
  category_slugs: string | null;
  verified_method: string | null;
}

/** A list row's categories, named from `names` (slug → name), by name as every tool read orders them. */
export function listCategories(row: ToolListRow, names: Readonly<Record<string, string>>): ToolCategory[] {
  if (!row.category_slugs) return [];
  const categories: ToolCategory[] = [];
  for (const slug of row.category_slugs.split(' ')) {
    const name = names[slug];
    if (name !== undefined) categories.push({ slug, name });
  }
  if (categories.length > 1)
    categories.sort((a, b) => compareText(a.name.toLowerCase(), b.name.toLowerCase()) || compareText(a.slug, b.slug));
  return categories;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A list row as a summary (what search returns). */
export function listSummary(row: ToolListRow, categories: ToolCategory[]): ToolSummary {
  return {
    slug: row.slug ?? '',
    name: row.name,
    url: row.url,
    description: shortenDescription(row.description),
    is_feature: Boolean(row.is_feature),
    is_sponsor: Boolean(row.is_sponsor),
    live_url: row.live_url,
    categories,
    ...verifiedMark(row.verified_method),
  };
}

/** A list row as a card of the pages. */
export function listCard(row: ToolListRow, categories: ToolCategory[]): ToolCard {
  return {
    slug: row.slug ?? '',
    name: row.name,
    description: shortenDescription(row.description?.trim() || null),
    image: mediaPath(row.image),
    icon: mediaPath(row.icon),
    is_feature: Boolean(row.is_feature),
    is_sponsor: Boolean(row.is_sponsor),
    categories,
    ...(row.verified_method ? { verified_owner: true as const } : {}),
  };
}

/** A row of `toolColumns`: the detail, except that the database allows a null slug and drivers may leave JSON as text. */
export type ToolRow = Omit<
  ToolDetail,
  'slug' | 'categories' | 'verified_owner' | 'verified_method' | 'health' | 'mcp'
> & {
  slug: string | null;
  categories: ToolCategory[] | string | null;
  verified_method: string | null;
} & ToolHealthRow &
  ToolMcpRow;

function categoriesOf(row: ToolRow): ToolCategory[] {
  const value = typeof row.categories === 'string' ? (JSON.parse(row.categories) as ToolCategory[]) : row.categories;
  return (value ?? []).map((c) => ({ slug: c.slug, name: c.name }));
}

/** Cuts at a word boundary and marks the cut, so a result line never ends mid-word. */
export function shortenDescription(text: string | null, max = SHORT_DESCRIPTION_LENGTH): string | null {
  // Most descriptions have single spaces only: the collapsing replace (a new string) runs only when it changes something.
  const clean = (text && /[^\S ]| {2}/.test(text) ? text.replace(/\s+/g, ' ') : text)?.trim();
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
    ...verifiedMark(row.verified_method),
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
    ...verifiedMark(row.verified_method),
    health: healthOf(row),
    mcp: mcpOf(row),
  };
}

/** What a card shows. Image and icon are same-origin /media/ paths of our own copies (docs/media.md), or null. */
export type ToolCard = Pick<
  ToolDetail,
  'slug' | 'name' | 'description' | 'image' | 'icon' | 'is_feature' | 'is_sponsor' | 'categories' | 'verified_owner'
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
    ...(detail.verified_owner ? { verified_owner: true as const } : {}),
  };
}
