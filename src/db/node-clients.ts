// Node-only database clients: PGlite (embedded, local mode) and node-postgres. Imported by the Node entry only.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { prepareStatementsByText } from './node-statement-cache';
import type { Db } from './client';
import { applyBaselineToNewDatabase, migrationsFolder } from './baseline';

export { migrationsFolder };

export interface OpenedDb {
  db: Db;
  close(): Promise<void>;
}

/**
 * PGlite in `dataDir` (or in memory for `memory://`), migrated: a new one gets the squashed baseline first
 * (src/db/baseline.ts). The one step of migrating that needs code, not SQL (a requested duplicate-key backfill),
 * is the caller's: withRequestedKeyBackfill in src/submissions/.
 */
export async function openPglite(dataDir: string): Promise<OpenedDb> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema });
  await applyBaselineToNewDatabase({ query: async (text) => (await client.exec(text)).at(-1)?.rows as never });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, close: () => client.close() };
}

/**
 * node-postgres pool against a real server, migrated (a new database gets the baseline first, on one connection).
 * Pool errors are logged, not thrown: the next query retries.
 */
export async function openNodePostgres(databaseUrl: string, options: { max?: number } = {}): Promise<OpenedDb> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
  pool.on('error', (err) => console.error(JSON.stringify({ level: 'error', msg: 'postgres pool error', err: err.message })));
  prepareStatementsByText(pool);
  const db = drizzleNodePg(pool, { schema });
  const client = await pool.connect();
  try {
    await applyBaselineToNewDatabase({ query: async (text) => lastRows(await client.query(text)) });
  } finally {
    client.release();
  }
  await migrateNodePg(db, { migrationsFolder });
  return { db: db as unknown as Db, close: () => pool.end() };
}

/** A text of several statements answers one result per statement (simple query protocol): the last one's rows. */
function lastRows<T>(result: pg.QueryResult | pg.QueryResult[]): T[] {
  const last = Array.isArray(result) ? result.at(-1) : result;
  return (last?.rows ?? []) as T[];
}
