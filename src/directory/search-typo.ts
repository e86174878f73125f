// The typo fallback (search_corrections in drizzle/0034_search_meaning.sql; docs/mcp-and-search.md "Typos"). When a
// query's words find nothing, each word of 4 letters or more that no live tool holds (and that names no category) is
// corrected to the words of live names and descriptions (search_vocabulary, kept by a trigger) and of category names
// and synonyms: within one edit for a word of 4 to 7 letters, two from 8. An edit is a letter added, dropped or
// replaced; two neighbouring letters swapped are one edit on their own. The closest corrections come first, then the
// words more tools hold. The corrected query is searched like any query (every tier), and the answer says so.
//
// Finding the corrections (drizzle/0049_search_typo_deletions.sql): two words within e insertions, deletions or
// replacements of each other leave a common string once at most e letters are removed from each (SymSpell's symmetric
// deletions). search_vocabulary_deletions keeps every vocabulary word under the strings it leaves (one removal; two for
// words of 8 to 14 letters), so a typed word's own strings find every candidate by primary key, and fuzzystrmatch's
// levenshtein keeps those within e edits. A typed word of 13 letters or more at two edits is looked up by trigrams
// instead: a word within e edits of one with m distinct trigrams keeps at least m − 3e of them (an edit touches at most
// three) and has at most len + 1 + e, so its pg_trgm similarity is at least (m − 3e) / (len + 1 + 4e), and the trigram
// index at that threshold finds every such word. A swap, which touches four trigrams and is two edits to levenshtein,
// is looked up as the word itself. Words of 8 letters or more try one edit first and two only when one finds nothing.

/** Corrected queries tried, the closest first: attempt i takes every word's i-th correction. */
export const TYPO_ATTEMPTS = 3;
