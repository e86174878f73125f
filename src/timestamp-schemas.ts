import { z } from 'zod';

// How the API writes a time, declared once: every timestamp of every body is ISO 8601 in UTC with milliseconds
// (`2026-11-21T21:05:03.000Z`, what `isoTimestamp` in src/db/sql-format.ts and Date#toISOString write), except the
// site record's `submitted_at`, whose database style the reference fixes (docs/api-timestamps.md).

export const ISO_TIMESTAMP_EXAMPLE = '2026-11-21T21:05:03.000Z';

/** Exactly what the service writes: `format: date-time` alone would also admit `2026-11-21 21:05:03+00`. */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A timestamp field: `format: date-time` and its exact pattern in openapi.json (the API's description says it once). */
export const isoTimestampSchema = (description: string, example = ISO_TIMESTAMP_EXAMPLE) =>
  z.string().meta({ format: 'date-time', pattern: ISO_TIMESTAMP.source, description, example });

/** The site record's `submitted_at`: `YYYY-MM-DD HH:MM:SS+00` in UTC, as the reference (section 2.4) fixes it. */
export const DB_STYLE_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00$/;

export const siteSubmittedAtSchema = z.string().meta({
  pattern: DB_STYLE_TIMESTAMP.source,
  description:
    'YYYY-MM-DD HH:MM:SS+00 (UTC): the one timestamp not in ISO 8601, as the reference fixes it for site records',
  example: '2026-11-21 21:05:03+00',
});
