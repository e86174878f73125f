import { neon, neonConfig } from '@neondatabase/serverless';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNeonHttp } from 'drizzle-orm/neon-http';
import type { SQL } from 'drizzle-orm';
import * as schema from './schema';

/** Every driver (PGlite, node-postgres, Neon HTTP) is used through this one type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Runs raw SQL and returns its rows, whatever the driver's result envelope. Atomic steps are written
 * as one statement (data-modifying CTEs) so they hold on Neon's HTTP driver, which has no interactive
 * transactions. Timestamps are formatted in SQL so every driver returns the same text.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/**
 * The Workers-safe client: Neon's SQL-over-HTTP driver, one round trip per statement.
 * `fetchEndpoint` points it at a stand-in in tests (NEON_FETCH_ENDPOINT).
 */
export function createNeonHttpDb(databaseUrl: string, fetchEndpoint?: string): Db {
  if (fetchEndpoint) neonConfig.fetchEndpoint = fetchEndpoint;
  return drizzleNeonHttp(neon(databaseUrl), { schema }) as unknown as Db;
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
