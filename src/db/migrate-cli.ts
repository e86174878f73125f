// `npm run db:migrate`: applies the drizzle/ migrations to DATABASE_URL with node-postgres (Node only).
// Used once per deploy against Neon (or any PostgreSQL); safe to re-run: applied migrations are skipped.
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openNodePostgres } from './node-clients';

/** Number of rows in drizzle's migration journal table, 0 when it does not exist yet. */
async function appliedCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS t`);
    if (!exists.rows[0]?.t) return 0;
    const rows = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM drizzle.__drizzle_migrations');
    return Number(rows.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Applies pending migrations; returns how many were new and how many are applied in total. */
export async function migrateDatabase(databaseUrl: string): Promise<{ applied: number; total: number }> {
  const before = await appliedCount(databaseUrl);
  const opened = await openNodePostgres(databaseUrl, { max: 1 }); // opening migrates
  await opened.close();
  const total = await appliedCount(databaseUrl);
  return { applied: total - before, total };
}

/** Hides the password when the URL is echoed. */
function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    console.error('DATABASE_URL must be set to a postgres:// or postgresql:// URL, e.g.\n  DATABASE_URL=postgresql://user:pass@host/db?sslmode=require npm run db:migrate');
    process.exit(2);
  }
  try {
    const { applied, total } = await migrateDatabase(databaseUrl);
    console.log(`migrated ${describeUrl(databaseUrl)}: ${applied} new migration(s), ${total} applied in total`);
  } catch (error) {
    console.error(`migration failed for ${describeUrl(databaseUrl)}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
