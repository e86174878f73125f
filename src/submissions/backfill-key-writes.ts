import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isUniqueViolation, queryRows } from '../db/client';

/**
 * The writes of the duplicate-key backfill (backfill-keys.ts decides who gets which key). Keys are written a batch
 * per statement: one statement per row cost a round trip and a run of every statement trigger per row, two and a
 * half hours for a million tools (docs/bench.md "Bulk writes"); a batch costs what its rows cost. Every write is
 * still conditional on the key this run read and on no other row holding the new one, so running beside live
 * traffic or twice is harmless; a batch that meets a unique violation anyway (a concurrent submit took the key)
 * is retried row by row.
 */

export const KEY_WRITE_BATCH = 1000;

/** A unique key column and how a row's key is scoped (pending records are unique per account). */
export interface KeyColumn {
  table: 'sites' | 'pending_submissions';
  column: 'canonical_url' | 'normalized_name';
  unique: boolean;
}

export interface KeyRow {
  id: string;
  /** The uniqueness scope: '' for sites, the account for pending records. */
  scope: string;
  old: string;
  next: string;
}

/** written; blocked (another row holds the new key); moved (the row changed or went since it was read). */
export type KeyWriteOutcome = 'written' | 'blocked' | 'moved';

const rowsJson = (rows: { id: string; old: string | null; next: string }[]) =>
  sql`jsonb_to_recordset(${JSON.stringify(rows.map(({ id, old, next }) => ({ id, old, next })))}::jsonb) AS v(id uuid, old text, next text)`;

/** Writes `rows`' keys, KEY_WRITE_BATCH per statement; the outcome of each row by id. */
export async function writeKeys(db: Db, target: KeyColumn, rows: KeyRow[]): Promise<Map<string, KeyWriteOutcome>> {
  const outcomes = new Map<string, KeyWriteOutcome>();
  for (let from = 0; from < rows.length; from += KEY_WRITE_BATCH) {
    const batch = rows.slice(from, from + KEY_WRITE_BATCH);
    let written: string[];
    try {
      written = (await queryRows<{ id: string }>(db, batchWrite(target, batch))).map((r) => r.id);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      for (const row of batch) outcomes.set(row.id, await writeKey(db, target, row));
      continue;
    }
    for (const id of written) outcomes.set(id, 'written');
    const unwritten = batch.filter((row) => !outcomes.has(row.id));
    if (unwritten.length === 0) continue;
    // Not written: either another row holds the key, or this row changed (or went) since it was read, in which
    // case whatever changed it wrote a key by the current rules.
    const current = new Map(
      (
        await queryRows<{ id: string; key: string }>(
          db,
          sql`SELECT t.id, t.${sql.identifier(target.column)} AS key
        FROM ${sql.identifier(target.table)} t JOIN ${rowsJson(unwritten)} ON t.id = v.id`,
        )
      ).map((r) => [r.id, r.key]),
    );
    for (const row of unwritten) outcomes.set(row.id, current.get(row.id) === row.old ? 'blocked' : 'moved');
  }
  return outcomes;
}

/** One batch's conditional write (exported for the test of its plan). */
export function batchWrite(target: KeyColumn, batch: KeyRow[]): SQL {
  const table = sql.identifier(target.table);
  const column = sql.identifier(target.column);
  // The snapshot's holder blocks a row even when it moves off the key in this same batch: the next pass writes it.
  const free = target.unique
    ? sql`AND NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.${column} = v.next ${scopedTo(target, sql`t.account_id`)})`
    : sql``;
  return sql`UPDATE ${table} t SET ${column} = v.next FROM ${rowsJson(batch)}
    WHERE t.id = v.id AND t.${column} = v.old ${free} RETURNING t.id`;
}

/** One conditional write: only over the key this run read, and only while no other row holds the new one. */
async function writeKey(db: Db, target: KeyColumn, row: KeyRow): Promise<KeyWriteOutcome> {
  const table = sql.identifier(target.table);
  const column = sql.identifier(target.column);
  const free = target.unique
    ? sql`AND NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.${column} = ${row.next} ${scopedTo(target, sql`${row.scope}::uuid`)})`
    : sql``;
  try {
    const written = await queryRows<{ id: string }>(
      db,
      sql`UPDATE ${table} SET ${column} = ${row.next} WHERE id = ${row.id}::uuid AND ${column} = ${row.old} ${free} RETURNING id`,
    );
    if (written.length > 0) return 'written';
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const [current] = await queryRows<{ key: string }>(
    db,
    sql`SELECT ${column} AS key FROM ${table} WHERE id = ${row.id}::uuid`,
  );
  return current?.key === row.old ? 'blocked' : 'moved';
}

/** The row that holds `row`'s new key, if one can be told. */
export async function holderOf(db: Db, target: KeyColumn, row: KeyRow): Promise<string | null> {
  const table = sql.identifier(target.table);
  const column = sql.identifier(target.column);
  const [holder] = await queryRows<{ id: string }>(
    db,
    sql`SELECT o.id FROM ${table} o WHERE o.${column} = ${row.next} ${scopedTo(target, sql`${row.scope}::uuid`)} LIMIT 1`,
  );
  return holder?.id ?? null;
}

/**
 * The rows a key is unique among, as the unique index states it: a pending record's account (the index is on account
 * and key), and for sites the rows not withdrawn (`sites_*_key ... WHERE withdrawn_at IS NULL`). The condition must
 * be the index's own: without it the index does not apply, and PostgreSQL looks for the holder by reading the whole
 * table, once per row of the batch (a 1,000-row batch over 250,000 tools ran for more than nine minutes).
 */
function scopedTo(target: KeyColumn, account: SQL): SQL {
  return target.table === 'pending_submissions' ? sql`AND o.account_id = ${account}` : sql`AND o.withdrawn_at IS NULL`;
}

/** The crawl's `metadata.finalCanonical`, a batch per statement, each only over the value this run read; rows written. */
export async function writeFinalCanonicals(
  db: Db,
  rows: { id: string; old: string | null; next: string }[],
): Promise<number> {
  let written = 0;
  for (let from = 0; from < rows.length; from += KEY_WRITE_BATCH) {
    const updated = await queryRows<{ id: string }>(
      db,
      sql`UPDATE sites t SET metadata = jsonb_set(t.metadata, '{finalCanonical}', to_jsonb(v.next)) FROM ${rowsJson(rows.slice(from, from + KEY_WRITE_BATCH))}
          WHERE t.id = v.id AND t.metadata->>'finalCanonical' IS NOT DISTINCT FROM v.old RETURNING t.id`,
    );
    written += updated.length;
  }
  return written;
}
