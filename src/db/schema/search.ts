import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';

// What directory search reads besides sites (docs/mcp-and-search.md "Speed" and "Typos"). Triggers on sites keep both
// exact as tools go live, are renamed or edited, or leave (drizzle/0034_search_meaning.sql); nothing else writes them.

/**
 * How many live tools hold each lexeme of search_vector (`tools`) and of name_vector (`name_tools`); the lexeme '' counts
 * every live tool. search_hits reads them before anything else: a tier the counts show empty is never read, a sparse one
 * is looked up, a dense one read in listing order. Category lexemes (`#<slug>`) are counted too. C collation, so a word
 * typed halfway counts the lexemes it begins by one range scan (the collation is set in SQL: drizzle cannot declare it).
 */
export const searchLexemes = pgTable('search_lexemes', {
  lexeme: text('lexeme').primaryKey(),
  tools: integer('tools').notNull(),
  nameTools: integer('name_tools').notNull(),
});

/**
 * The words of live tools' names and descriptions (lower-case, 3 to 64 characters with a letter, no stop word), with
 * how many live tools use each: what the typo fallback corrects a query's words to (search_corrections).
 */
export const searchVocabulary = pgTable(
  'search_vocabulary',
  {
    word: text('word').primaryKey(),
    tools: integer('tools').notNull(),
  },
  (t) => [index('search_vocabulary_word_trgm_idx').using('gin', t.word.op('gin_trgm_ops'))],
);
