import { sql, type SQL } from 'drizzle-orm';

// Timestamps leave the database as text in the exact shape the API shows, so every driver agrees.

/** `YYYY-MM-DD HH:MM:SS+00`: the reference's database-style site timestamp. */
export const dbStyleTimestamp = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || '+00'`;

/** ISO 8601 with milliseconds in UTC, as pending-payment records show it. */
export const isoTimestamp = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
