// The typo fallback (search_page in drizzle/0030_search_page_function.sql): when the words match no live tool, each
// word that is not a word of a live name is replaced by the words of live names most similar to it (search_words,
// kept by a trigger: drizzle/*_search_derived_columns.sql), and names are searched for the corrected words.
// Correcting words against a vocabulary is cheap, where comparing the query with every name was not
// (docs/mcp-and-search.md "Typo fallback").

/**
 * Lowest pg_trgm similarity between a query word and a vocabulary word that still counts as a typo of it: low
 * enough for a swapped pair of letters in a six-letter word ("notoin" → "notion" ≈ 0.27), high enough to leave
 * unrelated words alone.
 */
export const TYPO_SIMILARITY = 0.25;

/** How many corrections of one word are searched (the closest first). */
export const CORRECTIONS_PER_WORD = 3;
