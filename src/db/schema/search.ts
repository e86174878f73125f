import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The words of live tools' names, with how many live tools use each: the vocabulary the typo fallback corrects a
 * query against (search_page, drizzle/0030_search_page_function.sql). A trigger on sites keeps it exact as tools go
 * live, are renamed or leave (drizzle/0025_search_derived_columns.sql); nothing else writes it.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
    tools: integer('tools').notNull(),
  },
  (t) => [
    index('search_words_word_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
    check('search_words_tools_positive', sql`${t.tools} > 0`),
  ],
);
