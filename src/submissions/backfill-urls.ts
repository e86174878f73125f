import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { storedUrl } from './url';

// Until issue 27 a record kept its URL as typed, so `http://tool.localhost:8000\@evil.example/` was published as
// typed: a browser goes to tool.localhost, other URL parsers to evil.example. Now a URL is stored as the parser
// reads it (src/submissions/url.ts storedUrl); this brings rows stored earlier to that spelling, which is the
// address browsers (and our crawler) already used for them. SQL cannot run the WHATWG parser, so this runs as code
// with the requested key backfill (src/submissions/requested-key-backfill.ts).

/** Rows per statement: one round trip per batch, not per row, so a million rows take minutes, not hours. */
const BATCH = 1000;

export interface StoredUrlRow {
  id: string;
  url: string;
}

/**
 * Rewrites the `url` of every row whose stored text is not the parser's spelling of itself. Each batch is one
 * statement that writes a row only while it still holds the text read, so a concurrent edit is never overwritten
 * and running it twice changes nothing. A text that no longer parses is left alone (the key backfill reports it).
 * Returns the number of rows rewritten.
 */
export async function rewriteStoredUrls(
  db: Db,
  table: 'sites' | 'pending_submissions',
  rows: StoredUrlRow[],
): Promise<number> {
  const changes: Array<{ id: string; old: string; new: string }> = [];
  for (const row of rows) {
    const parsed = parsedSpelling(row.url);
    if (parsed !== undefined && parsed !== row.url) changes.push({ id: row.id, old: row.url, new: parsed });
  }
  let rewritten = 0;
  for (let i = 0; i < changes.length; i += BATCH) {
    const batch = JSON.stringify(changes.slice(i, i + BATCH));
    const updated = await queryRows<{ id: string }>(
      db,
      sql`UPDATE ${sql.identifier(table)} AS t SET url = v.new
          FROM jsonb_to_recordset(${batch}::jsonb) AS v(id uuid, old text, new text)
          WHERE t.id = v.id AND t.url = v.old
          RETURNING t.id`,
    );
    rewritten += updated.length;
  }
  return rewritten;
}

function parsedSpelling(url: string): string | undefined {
  try {
    return storedUrl(url);
  } catch {
    return undefined;
  }
}
