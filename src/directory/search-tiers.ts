import { sql, type SQL } from 'drizzle-orm';
import type { SearchPosition } from './search-cursor';
import { fromMicros } from './search-keys';
import { CORRECTIONS_PER_WORD, TYPO_SIMILARITY } from './search-typo';

// How a text search finds one page of its ranked matches without scoring every match
// (docs/mcp-and-search.md "Ranking" and "Speed"). The steps run in the database, in search_page and
// search_tier_hits (drizzle/0030_search_page_function.sql); the numbers that tune them are here.
//
// Rank is a tier, then newest first. For a text search:
//   0  the name is the query (case-insensitive)
//   1  every word of the query is a whole word of the name
//   2  every word is in the name, the last one perhaps typed halfway
//   3  every word is in the name or the description
// and for the typo fallback (./search-typo.ts): 1 the name has the closest correction of every word, 2 some
// correction of every word. Each tier's condition holds for every row of the tiers before it.
// Within a tier the order is the listing order, which the partial index sites_live_listing_idx already holds. So
// no tier needs all of its matches to find its newest ones. The tiers are filled in order until the page is full;
// each tier's rows come from the cheapest of three places, chosen by how many of the newest tools (the window) are
// in it:
//   - the window itself, when it holds the rest of the page in this tier (a dense tier: a common word);
//   - reading on in listing order past the window, when the window holds enough of the tier (WALK_RULE): its
//     density says where the rest of the page lies, and reading that far (index-only) costs less than fetching
//     every match from the table;
//   - a GIN lookup of the tier's matches, when the window holds fewer: a sparse tier has few matches.
// Every way gives the exact page. A tier the window shows empty costs one lookup of nothing, so words that never
// occur together cost little. The window grows with the square root of the directory, which keeps the window and
// both ways on equal terms as the directory grows (docs/bench.md "Directory search": the growth curve).

/** The window is √(WINDOW_PER_TOOL × tools): 1,500 at 100,000 tools, 4,743 at a million. */
export const WINDOW_PER_TOOL = 22.5;
/** The smallest window (and the window while the table's size is not known yet: never analysed). */
export const MIN_WINDOW = 200;
/**
 * CPU of reading one more tool in listing order (an index-only scan testing its vectors, about 0.25 µs) relative to
 * fetching one match of a GIN lookup (a table row, about 1.4 µs), measured on PostgreSQL 15 at 100,000 tools.
 */
const WALK_COST = 0.2;
/**
 * A tier with n of its rows in the window, `more` short of the rows still wanted, is read on in listing order when
 * that costs clearly less than looking it up (a third: the window's n is a small sample of the tier's density, and
 * reading on that comes up short is paid on top of the lookup). Reading on takes about more × window / n rows, a
 * lookup fetches about n × tools / window matches, so with window² = WINDOW_PER_TOOL × tools the rule is
 * n² ≥ 3 × WALK_COST × WINDOW_PER_TOOL × more, whatever the directory's size: n ≥ 12 for a page of 20.
 */
export const WALK_RULE = 3 * WALK_COST * WINDOW_PER_TOOL;
/** Reading on stops after three times the rows it expected to need; then the tier is looked up after all. */
export const WALK_SLACK = 3;

/**
 * The call of search_page for one page: `id, sort_at, tier, mode` of the best `take` live matches after `after`.
 * `whole` and `prefix` are the words' tsqueries (every word whole; the last one as a prefix), with the category's
 * lexeme joined when there is a category (`categoryQuery`). Every value is a parameter: the statement has two texts
 * (with and without a category), both short, so a driver that cannot keep prepared statements (Neon's HTTP driver)
 * has little to plan.
 */
export function searchPageCall(options: {
  query: string;
  terms: readonly string[];
  whole: SQL;
  prefix: SQL;
  category: string | undefined;
  categoryQuery: SQL | undefined;
  take: number;
  typoCursor: boolean;
  after: SearchPosition | undefined;
}): SQL {
  const { after } = options;
  return sql`search_page(${options.query}::text, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(options.terms)}::jsonb)), ${options.whole}, ${options.prefix},
    ${options.category ?? null}::text, ${options.categoryQuery ?? sql`NULL::tsquery`}, ${options.take}::int, ${options.typoCursor}::boolean,
    ${after?.tier ?? null}::int, ${after ? fromMicros(after.publishedMicros) : null}::timestamptz, ${after?.id ?? null}::uuid,
    ${WINDOW_PER_TOOL}::real, ${MIN_WINDOW}::int, ${WALK_RULE}::real, ${WALK_SLACK}::real, ${TYPO_SIMILARITY}::real, ${CORRECTIONS_PER_WORD}::int)`;
}
