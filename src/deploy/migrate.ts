// Applies the drizzle/ migrations to a PostgreSQL URL with node-postgres (Node only), then the duplicate-key
// backfill a migration asked for (docs/deploy.md "Duplicate keys"). Safe to re-run. The operator command is
// `npm run db:migrate` (functions/ops/db-migrate.ts).
import pg from 'pg';
import { openNodePostgres } from '../db/node-clients';
import { runRequestedKeyBackfill, withRequestedKeyBackfill } from '../submissions/requested-key-backfill';

/** Number of rows in drizzle's migration journal table, 0 when it does not exist yet. */
async function appliedCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const exists = await client.query<{ t: string | null }>(
      `SELECT to_regclass('drizzle.__drizzle_migrations')::text AS t`,
    );
    if (!exists.rows[0]?.t) return 0;
    const rows = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM drizzle.__drizzle_migrations');
    return Number(rows.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Applies pending migrations (and a requested key backfill); says how many were new and applied in total. */
export async function migrateDatabase(
  databaseUrl: string,
  options: { backfillKeys?: boolean } = {},
): Promise<{ applied: number; total: number; keyBackfill: Awaited<ReturnType<typeof runRequestedKeyBackfill>> }> {
  const before = await appliedCount(databaseUrl);
  const opened = await withRequestedKeyBackfill(await openNodePostgres(databaseUrl, { max: 1 })); // migrates, then a requested backfill
  let keyBackfill = opened.keyBackfill;
  try {
    if (options.backfillKeys && !keyBackfill) keyBackfill = await runRequestedKeyBackfill(opened.db, { force: true });
  } finally {
    await opened.close();
  }
  const total = await appliedCount(databaseUrl);
  return { applied: total - before, total, keyBackfill };
}
