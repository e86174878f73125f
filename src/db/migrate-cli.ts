// `npm run db:migrate`: applies the drizzle/ migrations to DATABASE_URL with node-postgres (Node only), then
// the duplicate-key backfill a migration asked for (`-- --backfill-keys` runs it regardless; docs/deploy.md
// "Duplicate keys"). Used once per deploy against Neon (or any PostgreSQL); safe to re-run.
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openNodePostgres, type OpenedDb } from './node-clients';
import { describeKeyBackfill, runRequestedKeyBackfill } from '../submissions/requested-key-backfill';

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

/** Applies pending migrations (and a requested key backfill); says how many were new and applied in total. */
export async function migrateDatabase(
  databaseUrl: string,
  options: { backfillKeys?: boolean } = {},
): Promise<{ applied: number; total: number; keyBackfill: OpenedDb['keyBackfill'] }> {
  const before = await appliedCount(databaseUrl);
  const opened = await openNodePostgres(databaseUrl, { max: 1 }); // opening migrates and runs a requested backfill
  let keyBackfill = opened.keyBackfill;
  try {
    if (options.backfillKeys && !keyBackfill) keyBackfill = await runRequestedKeyBackfill(opened.db, { force: true });
  } finally {
    await opened.close();
  }
  const total = await appliedCount(databaseUrl);
  return { applied: total - before, total, keyBackfill };
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
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--backfill-keys');
  if (unknown.length > 0) {
    console.error(`unknown argument(s): ${unknown.join(' ')}\nusage: npm run db:migrate [-- --backfill-keys]`);
    process.exit(2);
  }
  try {
    const { applied, total, keyBackfill } = await migrateDatabase(databaseUrl, { backfillKeys: args.includes('--backfill-keys') });
    console.log(`migrated ${describeUrl(databaseUrl)}: ${applied} new migration(s), ${total} applied in total`);
    if (keyBackfill) for (const line of describeKeyBackfill(keyBackfill)) console.log(line);
  } catch (error) {
    console.error(`migration failed for ${describeUrl(databaseUrl)}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
