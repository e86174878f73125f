// `npm run db:migrate [-- --backfill-keys]`: the operator command that migrates DATABASE_URL (once per deploy,
// against Neon or any PostgreSQL; docs/deploy.md). The work is src/deploy/migrate.ts. Exit codes: 0 done,
// 1 the migration failed, 2 bad configuration or arguments.
import { pathToFileURL } from 'node:url';
import { migrateDatabase } from '../../src/deploy/migrate';
import { describeKeyBackfill } from '../../src/submissions/requested-key-backfill';

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
    console.error(
      'DATABASE_URL must be set to a postgres:// or postgresql:// URL, e.g.\n  DATABASE_URL=postgresql://user:pass@host/db?sslmode=require npm run db:migrate',
    );
    process.exit(2);
  }
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--backfill-keys');
  if (unknown.length > 0) {
    console.error(`unknown argument(s): ${unknown.join(' ')}\nusage: npm run db:migrate [-- --backfill-keys]`);
    process.exit(2);
  }
  try {
    const { applied, total, keyBackfill } = await migrateDatabase(databaseUrl, {
      backfillKeys: args.includes('--backfill-keys'),
    });
    console.log(`migrated ${describeUrl(databaseUrl)}: ${applied} new migration(s), ${total} applied in total`);
    if (keyBackfill) for (const line of describeKeyBackfill(keyBackfill)) console.log(line);
  } catch (error) {
    console.error(
      `migration failed for ${describeUrl(databaseUrl)}: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
