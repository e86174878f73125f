import { createTableRelationsHelpers, extractTablesRelationalConfig, type SQL } from 'drizzle-orm';
import { PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { NeonHttpSession, type NeonHttpClient } from 'drizzle-orm/neon-http/session';
import { neonHttpQuery } from './neon-http/query';
import * as schema from './schema';
import { renderSql } from './render-sql';

/** Every driver (PGlite, node-postgres, Neon HTTP) is used through this one type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Runs raw SQL and returns its rows, whatever the driver's result envelope. Atomic steps are written
 * as one statement (data-modifying CTEs) so they hold on Neon's HTTP driver, which has no interactive
 * transactions. Timestamps are formatted in SQL so every driver returns the same text.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  // Rendered by ./render-sql.ts when it can (the same text, faster), else by drizzle; run the same way either way.
  const built = renderSql(query);
  const result = (built
    ? await db._.session.prepareQuery(built, undefined, undefined, false).execute()
    : await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/**
 * The Workers-safe client: drizzle's neon-http session over Neon's SQL-over-HTTP protocol, one round trip per
 * statement. The query function is ours (./neon-http/query.ts, the same requests as @neondatabase/serverless's
 * `neon()`, without that package's 47 KiB in the Worker), so this builds what drizzle-orm/neon-http's `drizzle()`
 * builds, minus its import of the package. `fetchEndpoint` points it at a stand-in in tests (NEON_FETCH_ENDPOINT).
 */
export function createNeonHttpDb(databaseUrl: string, fetchEndpoint?: string): Db {
  const dialect = new PgDialect();
  const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  const relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  const client = neonHttpQuery(databaseUrl, fetchEndpoint) as unknown as NeonHttpClient;
  return new PgDatabase(dialect, new NeonHttpSession(client, dialect, relational), relational) as unknown as Db;
}

/** Postgres unique-violation, however the driver wraps it. */
export function isUniqueViolation(error: unknown): { constraint?: string } | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    const candidate = e as { code?: string; constraint?: string; cause?: unknown };
    if (candidate.code === '23505') return { constraint: candidate.constraint };
    e = candidate.cause;
  }
  return undefined;
}
