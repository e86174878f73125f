import { sql, type SQL } from 'drizzle-orm';
import type { SearchPosition } from './search-cursor';
import { microsToTimestamp } from './search-keys';
import { queryTerms } from './search-terms';
import { TYPO_ATTEMPTS } from './search-typo';

// How a search finds one page of its ranked matches without scoring every match (docs/mcp-and-search.md "Ranking" and
// "Speed"). The steps run in the database, in search_results and search_hits (drizzle/0034_search_meaning.sql); the
// numbers that tune them are here and reach them as arguments.
//
// Rank is a tier, then newest first:
//   0  the name is the query (case-insensitive)
//   1  every word of the query is a whole word of the name
//   2  every word is in the name, the last one perhaps typed halfway
//   3  every word is in the name or the description
//   4  every word is there or names one of the tool's categories (a word of the category's name, or a synonym)
//   5  the query is the name of a tool of the listing's MCP server (no text tier matched it): search_tool_name_hits in
//      drizzle/0046_search_mcp_tool_names.sql, one GIN probe run only when tiers 0 to 4 leave room on the page
// A category is the broader signal: "podcasts" finds the tools that say they edit podcasts before every other tool in
// Audio (the judged relevance set, when it was made, measured the other order worse: precision at 5 0.90 against 0.94).
// Each tier's condition holds for every row of the tiers before it, and within a tier the order is the listing
// order, which the partial index sites_live_listing_idx holds. So no tier needs all of its matches to find its newest
// ones. The tiers fill the page in order; each tier's rows come from the cheapest place, chosen from counts kept per
// lexeme (search_lexemes: live tools holding it, in all and in names) before anything is read:
//   - nowhere, when a count says the tier is empty (a word no live tool holds: the typo fallback's first pass);
//   - reading the newest live tools in listing order (index-only, each given its tier), as far as the tier's density
//     says the page lies, when that costs less than fetching the matches: a common word;
//   - a GIN lookup of the tier's matches, when they are few (the counts are an upper bound: a word's count, or the
//     least count of several words), or when the rows read show the tier sparser than the counts said (words that
//     occur together less often than each alone).
// Rows read for one tier count for the later ones, so a common word usually costs one short read for every tier.

/**
 * CPU of reading one more tool in listing order (an index-only scan testing its vectors) relative to fetching one
 * match of a GIN lookup (a table row, then a sort), measured on PostgreSQL 15 (docs/bench.md "Directory search").
 */
export const WALK_COST = 0.2;
/**
 * Once rows have been read, their density is a small sample: reading on is chosen only when it costs less than a
 * lookup by this factor (reading on that comes up short is paid on top of the lookup).
 */
export const WALK_SLACK = 3;
/** The fewest rows one read takes (a statement costs more than a few rows). */
export const FIRST_WALK = 64;
/**
 * The first read of a tier of several words, whose density the counts cannot tell (words that never meet, or that
 * occur together in thousands of tools): enough rows to see a dense tier's page start, few enough to give up cheaply.
 */
export const PROBE_WALK = 256;
/**
 * Most postings one read of a word's postings takes (search_postings; the first read takes twice the rows the page still
 * needs); reading on stops when the rest is estimated beyond four such reads, and a lookup does the rest.
 */
export const POSTINGS_BATCH = 256;
/**
 * CPU of reading one posting (an index entry, then its tool's row to check the tier) relative to reading one tool in
 * listing order: a word in more than one tool in this many is cheaper to find by reading in order.
 */
export const POSTING_COST = 8;
/** Reading in listing order stops here whatever the counts say; a lookup does the rest. */
export const MAX_WALK = 20_000;
/** Tools an empty answer offers instead: the newest (of the category searched, when it has any). */
export const FALLBACK_TOOLS = 6;
/** Categories an empty answer offers: the closest to the query's words, then the largest. */
export const FALLBACK_CATEGORIES = 3;

/** One ranked page a search asks for: its words, its category, how many rows, whether to correct, after what. */
export interface RankedPageCall {
  query: string;
  category: string | undefined;
  take: number;
  correct: boolean;
  after: SearchPosition | undefined;
}

/** Most searches in one statement (./ranked-pages.ts batches them): sixteen two-word searches take about 6 ms together. */
export const MAX_SEARCHES_PER_STATEMENT = 16;

/**
 * The calls of one statement as rows `c`, one per call with its index `n`: sent as one JSON array, so the statement
 * text is the same however many calls it holds. The keys written here, the columns read back and searchResultsCall's
 * use of them are kept together so they cannot drift apart. The LIMIT tells the planner how many calls there can be:
 * it takes jsonb_to_recordset for the 100 rows the function declares, and costed with 100 calls of search_results a
 * directory of a million tools crossed jit_above_cost, so every search paid 30–45 ms of JIT compilation (docs/bench.md
 * "Directory search").
 */
export function searchCallRows(calls: readonly RankedPageCall[]): SQL {
  if (calls.length > MAX_SEARCHES_PER_STATEMENT)
    throw new Error(`${calls.length} searches in one statement: at most ${MAX_SEARCHES_PER_STATEMENT}`);
  const rows = calls.map((call, n) => ({
    n,
    query: call.query,
    terms: queryTerms(call.query),
    category: call.category ?? null,
    take: call.take,
    correct: call.correct,
    typo_attempt: call.after?.mode === 'typo' ? (call.after.attempt ?? 1) : null,
    after_tier: call.after?.tier ?? null,
    after_micros: call.after?.publishedMicros ?? null,
    after_id: call.after?.id ?? null,
  }));
  return sql`(SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
    AS c(n int, query text, terms jsonb, category text, take int, correct boolean, typo_attempt int, after_tier int,
      after_micros bigint, after_id uuid) LIMIT ${sql.raw(String(MAX_SEARCHES_PER_STATEMENT))}) AS c`;
}

/**
 * The call of search_results for one page, over the columns of a call `c` (searchCallRows): `ord, id, sort_at, tier,
 * mode, meta` rows (drizzle/0034_search_meaning.sql says what each mode is). The tuning numbers are parameters, so the
 * statement text is the same for every search: a driver that cannot keep prepared statements (Neon's HTTP driver) plans
 * one short call.
 */
export const searchResultsCall = sql`search_results(c.query, ARRAY(SELECT jsonb_array_elements_text(c.terms)),
    c.category, c.take, c.correct, c.typo_attempt, c.after_tier,
    ${microsToTimestamp(sql`c.after_micros`)}, c.after_id,
    ${WALK_COST}::real, ${WALK_SLACK}::real, ${FIRST_WALK}::int, ${PROBE_WALK}::int, ${MAX_WALK}::int, ${POSTINGS_BATCH}::int, ${POSTING_COST}::real,
    ${TYPO_ATTEMPTS}::int, ${FALLBACK_TOOLS}::int, ${FALLBACK_CATEGORIES}::int)`;
