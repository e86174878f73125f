import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { visibleCharacterCount } from '../printable-text';

/**
 * Clears the stored name of every OAuth client whose name shows nothing (blanks, fillers, lone marks): registered
 * before issue 27 made such a name no name (./client-metadata.ts), they would still show an empty gap on the consent
 * page. SQL has no Unicode categories, so this runs as code with the requested key backfill
 * (src/submissions/requested-key-backfill.ts). Only over the name read, so it is safe twice. Returns how many.
 */
export async function clearInvisibleClientNames(db: Db): Promise<number> {
  const rows = await queryRows<{ id: string; name: string }>(
    db,
    sql`SELECT id, name FROM oauth_clients WHERE name IS NOT NULL`,
  );
  let cleared = 0;
  for (const row of rows) {
    if (visibleCharacterCount(row.name) > 0) continue;
    const written = await queryRows<{ id: string }>(
      db,
      sql`UPDATE oauth_clients SET name = NULL WHERE id = ${row.id} AND name = ${row.name} RETURNING id`,
    );
    cleared += written.length;
  }
  return cleared;
}
