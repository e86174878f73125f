import { sql, type SQL } from 'drizzle-orm';

// Timestamps leave the database as text in the exact shape the API shows, so every driver agrees; declared words
// enter SQL as literals.

/** `YYYY-MM-DD HH:MM:SS+00`: the reference's database-style site timestamp. */
export const dbStyleTimestamp = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || '+00'`;

/** ISO 8601 with milliseconds in UTC, as pending-payment records show it. */
export const isoTimestamp = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A word of one of the code's own tables (a status, a state, a plan) as an SQL literal: `'approved'`. Inlined, not
 * a parameter, so a statement keeps the exact text a partial index's predicate matches. Never for input: only
 * lower-case words are accepted, anything else throws.
 */
export function sqlWord(word: string): SQL {
  if (!/^[a-zA-Z_]+$/.test(word)) throw new Error(`sqlWord: not a declared word: ${JSON.stringify(word)}`);
  return sql.raw(`'${word}'`);
}

/** Several words as `'a', 'b'`, for `IN (...)`. */
export const sqlWords = (words: readonly string[]): SQL => sql.join(words.map(sqlWord), sql`, `);
