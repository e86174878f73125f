import { sql, type SQL } from 'drizzle-orm';

// The listing's sort key in SQL, shared by every search statement and by the cursor that carries it.

/** When a tool was listed (sites.listed_at), the key of the index sites_live_listing_idx. */
export const sortAt = sql`s.listed_at`;

/** A timestamp as whole microseconds since 1970, in text (exact; a JS number would round it). */
export const sortMicros = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000000)::bigint::text`;

/** The timestamp that whole microseconds since 1970 (a bigint in SQL) stand for. */
export const microsToTimestamp = (micros: SQL) => sql`('epoch'::timestamptz + ${micros} * interval '1 microsecond')`;

/** The timestamp a cursor's microseconds stand for. */
export const fromMicros = (micros: string) => microsToTimestamp(sql`${micros}::bigint`);

/**
 * The tsquery of one category's lexeme in search_vector (`#<slug>`, made by search_category_lexemes in
 * drizzle/0024_search_tiers.sql). Quoted, so the slug's characters are the lexeme's, never tsquery syntax.
 */
export const categoryQuery = (category: string) => sql`(quote_literal(${`#${category}`}))::tsquery`;

/** Row `s` is in `category` (none: every row), tested on search_vector so a GIN lookup can answer it. */
export const inCategory = (category: string | undefined): SQL =>
  category ? sql`s.search_vector @@ ${categoryQuery(category)}` : sql`true`;
