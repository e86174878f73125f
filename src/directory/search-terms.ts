// How a search query becomes Postgres text-search input. Pure, so the rules are unit-tested without a database.

/** Longest query accepted (REST `q`, MCP `query`). */
export const MAX_QUERY_LENGTH = 200;
const MAX_TERMS = 12;
const MAX_TERM_LENGTH = 64;

/**
 * Trims and collapses whitespace; control characters count as whitespace (a NUL would make Postgres refuse
 * the statement), and half a surrogate pair becomes U+FFFD (the query travels inside a JSON parameter, which
 * Postgres refuses with one: ./search-statements.ts). The empty string means "no query" (newest tools first).
 */
export function normalizeQuery(query: string | undefined): string {
  return (query ?? '')
    .toWellFormed()
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

/** The query's words: letters and digits only, lower-cased, so nothing the user types can reach tsquery syntax. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.slice(0, MAX_TERMS).map((w) => w.slice(0, MAX_TERM_LENGTH));
}

/**
 * A `to_tsquery` text that requires every word, with the last word as a prefix so a query typed halfway
 * ("chat" → "chatbot") still matches. Returns undefined when the query has no words at all.
 * @example toPrefixTsQuery('AI writer') // "ai & writer:*"
 */
export function toPrefixTsQuery(query: string): string | undefined {
  const terms = queryTerms(query);
  if (terms.length === 0) return undefined;
  return terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
}

/** A `to_tsquery` text that requires every word as a whole word (none as a prefix). */
export const wholeWords = (terms: readonly string[]): string => terms.join(' & ');
