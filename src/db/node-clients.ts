// Node-only database clients: PGlite (embedded, local mode) and node-postgres. Imported by the Node entry only.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { prepareStatementsByText } from './node-statement-cache';
import type { Db } from './client';
import { applyBaselineToNewDatabase, migrationsFolder, type RawSession } from './baseline';
import { readSeed, saveSeed, seedPath } from './pglite-seed';

export { migrationsFolder };

export interface OpenedDb {
  db: Db;
  close(): Promise<void>;
}

/**
 * PGlite in `dataDir` (or in memory for `memory://`), migrated. A new one is loaded from the seed when there is one
 * (src/db/pglite-seed.ts), else made by initdb and laid from the baseline (src/db/baseline.ts), which then becomes
 * the seed. The one step of migrating that needs code, not SQL (a requested duplicate-key backfill), is the
 * caller's: withRequestedKeyBackfill in src/submissions/.
 */
/** The extensions every PGlite database loads: pg_trgm and fuzzystrmatch, the typo fallback's trigram lookup and edit
 * distance (drizzle/0034_search_meaning.sql). They are part of a seed's name (src/db/pglite-seed.ts). */
export const PGLITE_EXTENSIONS = { pg_trgm, fuzzystrmatch };

/**
 * Postgres's start-up parameters for PGlite: PGlite's own, with 16 MB of shared buffers instead of the 128 MB that
 * initdb wrote into postgresql.conf. PGlite zeroes its whole shared memory (145 MB at 128 MB of buffers) inside the
 * WebAssembly heap at every start, which was the largest single cost of a restart (docs/bench.md "Cold start"); one
 * local process, whose data files the operating system caches anyway, does not need more.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export async function openPglite(dataDir: string, options: { seedFolder?: string } = {}): Promise<OpenedDb> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const extensions = PGLITE_EXTENSIONS;
  const seedFile = seedPath(Object.keys(extensions), options.seedFolder);
  const isNew = inMemory || !existsSync(join(dataDir, 'PG_VERSION'));
  const seed = isNew ? readSeed(seedFile) : undefined;
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, {
      extensions,
      startParams: PGLITE_START_PARAMS,
      ...(seed ? { loadDataDir: seed } : {}),
    });
  } catch (error) {
    if (!seed) throw error;
    // A damaged seed: forget it and what it half wrote (a new folder of ours), and make the database anew.
    rmSync(seedFile!, { force: true });
    if (!inMemory) rmSync(dataDir, { recursive: true, force: true });
    return openPglite(dataDir, options);
  }
  const db = drizzlePglite(client, { schema });
  if (!seed && (await applyBaselineToNewDatabase(pgliteSession(client))) === 'applied')
    await saveSeed(client, seedFile);
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, close: () => client.close() };
}

/** Makes the seed of new PGlite databases if there is none yet (`npm ci` runs it through bin/server/prepare.js). */
export async function preparePgliteSeed(): Promise<'ready' | 'made'> {
  if (readSeed(seedPath(['pg_trgm']))) return 'ready';
  const opened = await openPglite('memory://');
  await opened.close();
  return 'made';
}

const pgliteSession = (client: PGlite): RawSession => ({
  query: async (text) => (await client.exec(text)).at(-1)?.rows as never,
});

/**
 * How long the Node server keeps an idle connection (node-postgres closes one after 10 s unless told otherwise). A new
 * backend plans each statement of the search functions the first time it runs one: its first search cost 50–80 ms,
 * and over its first 100 searches with a typo p95 was 17.6 ms against 5–6 ms afterwards (100,000 tools,
 * docs/bench.md "Directory search"). After 10 s idle a quiet server paid that again; five minutes keep the pool warm
 * between visits. (A neon.tech URL goes over Neon's HTTP API instead and keeps no connection.)
 */
export const SERVER_POOL_IDLE_MS = 5 * 60_000;

/**
 * node-postgres pool against a real server, migrated (a new database gets the baseline first, on one connection).
 * Pool errors are logged, not thrown: the next query retries. The server passes its configured size
 * (DATABASE_POOL_MAX, src/config.ts) and SERVER_POOL_IDLE_MS; the defaults (10 connections, closed after 10 s idle)
 * are for scripts and tests that open a pool of their own and should not keep a process alive.
 */
export async function openNodePostgres(
  databaseUrl: string,
  options: { max?: number; idleMs?: number } = {},
): Promise<OpenedDb> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    ...(options.idleMs !== undefined && { idleTimeoutMillis: options.idleMs }),
  });
  pool.on('error', (err) =>
    console.error(JSON.stringify({ level: 'error', msg: 'postgres pool error', err: err.message })),
  );
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
