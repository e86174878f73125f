import { sql, type SQL } from 'drizzle-orm';
import type { SearchPosition } from './search-cursor';
import { fromMicros, sortAt } from './search-keys';

// How a text search finds one page of its ranked matches without scoring every match
// (docs/mcp-and-search.md "Ranking" and "Speed").
//
// Rank is a tier, then newest first. For a text search:
//   0  the name is the query (case-insensitive)
//   1  every word of the query is a whole word of the name
//   2  every word is in the name, the last one perhaps typed halfway
//   3  every word is in the name or the description
// and for the typo fallback (./search-typo.ts): 1 the name has the closest correction of every word, 2 some
// correction of every word. Each tier's condition holds for every row of the tiers before it.
// Within a tier the order is the listing order, which the partial index sites_live_listing_idx already holds.
// So a common word needs no bitmap of its thousands of matches: the newest RECENT_WINDOW live tools are read in
// index order, and when they hold a full page of a tier, that is the tier's page. Only a tier that is sparse
// among recent tools is read through its GIN index, and a sparse tier has few matches. Either way, one tier
// costs at most about RECENT_WINDOW row reads plus its sparse matches, and the page is exact.

/**
 * How many of the newest live tools are read in listing order before a tier is looked up through its index.
 * Large enough that a word in 1 of 30 tools fills a page of 50 (51 rows) from it; small enough to read in
 * about a millisecond (an index-only scan of sites_live_listing_idx, which carries every column the window reads).
 */
export const RECENT_WINDOW = 1500;

export interface TierQuery {
  /** The normalised query text (tier 0 compares it with the name). */
  query: string;
  /**
   * Row `s` is in tier 1, in tier 1 or 2, …: each condition holds for every row of the ones before it. Each is one
   * tsquery match on name_vector or search_vector, with the category's lexeme joined to the words when there is a
   * category, so one GIN lookup answers words and category. The last one is every match.
   */
  tiers: SQL[];
  /** Whether tier 0 (the name is the query) applies: a text search, not the typo fallback. */
  exactTier: boolean;
  category: string | undefined;
  /** Rows wanted (a page plus one, to know whether another page follows). */
  take: number;
  /** The last row of the previous page, or undefined for a first page. */
  after: SearchPosition | undefined;
}


/**
 * The listing key as an expression no index holds. A lookup of a sparse tier orders by it, so the planner
 * fetches the tier's few matches through their own index and sorts them; ordered by listed_at itself, it may
 * walk the whole listing index in hope of matches (the index carries name and both vectors, which makes that
 * walk look cheap), and reading 100,000 entries to find none is the slowest plan there is.
 */
const unindexedSortAt = sql`(${sortAt} + interval '0 s')`;

/**
 * The rank tier of row `s` (null: not a match), as the recent window computes it: the widest condition first,
 * so the many rows that match nothing cost one tsvector test.
 */
function tierOf(q: TierQuery): SQL {
  const exact = q.exactTier ? sql`WHEN lower(s.name) = lower(${q.query}) THEN 0 ` : sql``;
  const narrower = q.tiers.slice(0, -1).map((condition, i) => sql`WHEN ${condition} THEN ${sql.raw(String(i + 1))} `);
  return sql`CASE WHEN NOT ${q.tiers.at(-1)!} THEN NULL ${exact}${sql.join(narrower)}ELSE ${sql.raw(String(q.tiers.length))} END`;
}

/** Tier `tier`'s condition on row `s`, written so the GIN indexes can find its rows. */
function tierCondition(q: TierQuery, tier: number): SQL {
  const notExact = q.exactTier ? sql` AND lower(s.name) <> lower(${q.query})` : sql``;
  // Tier 0 must be found through sites_live_lower_name_idx alone: its category test reads category_slugs, which
  // no index holds, so no plan (a prepared one included) can start from the category's thousands of tools.
  if (tier === 0) return sql`lower(s.name) = lower(${q.query})${q.category ? sql` AND s.category_slugs @> ARRAY[${q.category}::text]` : sql``}`;
  const previous = tier > 1 ? sql` AND NOT ${q.tiers[tier - 2]!}` : sql``;
  return sql`${q.tiers[tier - 1]!}${previous}${notExact}`;
}

/**
 * CTEs (named `${p}_…`, comma-separated, no leading WITH) that end in `${p}_page (id, sort_at, tier)`: the
 * `take` best live matches of `q` after `q.after`, ordered by tier, then newest. Nothing runs unless `guard`
 * holds (the typo fallback's "only when the words matched nothing").
 */
export function rankedHits(p: string, q: TierQuery, guard: SQL): SQL {
  const name = (suffix: string) => sql.raw(`${p}_${suffix}`);
  // Row counts are written into the text, not bound: a prepared plan must know its LIMITs to cost them.
  const take = sql.raw(String(Math.trunc(q.take)));
  const position = q.after ? sql` AND (${sortAt}, s.id) < (${fromMicros(q.after.publishedMicros)}, ${q.after.id}::uuid)` : sql``;
  const afterTier = q.after ? Number(q.after.tier) : -1;
  const windowOf = (tier: number) => (tier === afterTier ? 'wa' : 'w');
  const positionOf = (tier: number) => (tier === afterTier ? position : sql``);
  const ranked = q.tiers.map((_, i) => i + 1);
  const ctes: SQL[] = [];
  const tierNames: SQL[] = [];

  for (const [suffix, windowPosition] of [['w', sql``], ['wa', position]] as const) {
    const used = ranked.some((tier) => tier >= afterTier && windowOf(tier) === suffix);
    if (!used) continue;
    ctes.push(sql`${name(suffix)} AS MATERIALIZED (
      SELECT s.id, ${sortAt} AS sort_at, ${tierOf(q)} AS tier FROM sites s
      WHERE ${guard} AND s.status = 'live'${windowPosition}
      ORDER BY ${sortAt} DESC, s.id DESC LIMIT ${sql.raw(String(RECENT_WINDOW))})`);
  }
  if (q.exactTier && afterTier <= 0) {
    ctes.push(sql`${name('t0')} AS MATERIALIZED (
      SELECT s.id, ${sortAt} AS sort_at, 0 AS tier FROM sites s
      WHERE ${guard} AND s.status = 'live' AND ${tierCondition(q, 0)}${positionOf(0)}
      ORDER BY ${unindexedSortAt} DESC, s.id DESC LIMIT ${take})`);
    tierNames.push(name('t0'));
  }
  for (const tier of ranked) {
    if (tier < afterTier) continue;
    const window = name(windowOf(tier));
    const recent = name(`r${tier}`);
    const ok = name(`ok${tier}`);
    ctes.push(sql`${recent} AS MATERIALIZED (
      SELECT id, sort_at, tier FROM ${window} WHERE tier = ${sql.raw(String(tier))} ORDER BY sort_at DESC, id DESC LIMIT ${take})`);
    // The recent window answers for this tier when it holds a full page of it, or holds every live tool left;
    // tiers above this one already filling the page make its index lookup pointless too.
    const filled = tierNames.length ? sql` OR (${sql.join(tierNames.map((t) => sql`(SELECT count(*) FROM ${t})`), sql` + `)}) >= ${take}` : sql``;
    ctes.push(sql`${ok} AS MATERIALIZED (
      SELECT (SELECT count(*) FROM ${recent}) >= ${take} OR (SELECT count(*) FROM ${window}) < ${sql.raw(String(RECENT_WINDOW))} AS recent,
        false${filled} AS filled)`);
    ctes.push(sql`${name(`t${tier}`)} AS MATERIALIZED (
      SELECT id, sort_at, tier FROM ${recent} WHERE (SELECT recent FROM ${ok})
      UNION ALL
      (SELECT s.id, ${sortAt} AS sort_at, ${sql.raw(String(tier))} AS tier FROM sites s
        WHERE (SELECT NOT recent AND NOT filled FROM ${ok}) AND s.status = 'live' AND ${tierCondition(q, tier)}${positionOf(tier)}
        ORDER BY ${unindexedSortAt} DESC, s.id DESC LIMIT ${take}))`);
    tierNames.push(name(`t${tier}`));
  }
  // A cursor past the last tier (forged: next_cursor never points there) leaves nothing to read: an empty page.
  const hits = tierNames.length
    ? sql.join(tierNames.map((t) => sql`SELECT id, sort_at, tier FROM ${t}`), sql` UNION ALL `)
    : sql`SELECT NULL::uuid AS id, NULL::timestamptz AS sort_at, NULL::int AS tier WHERE false`;
  ctes.push(sql`${name('page')} AS (SELECT * FROM (${hits}) h ORDER BY tier, sort_at DESC, id DESC LIMIT ${take})`);
  return sql.join(ctes, sql`, `);
}
