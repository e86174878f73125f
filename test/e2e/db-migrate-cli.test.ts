// `npm run db:migrate` against a real PostgreSQL server: applies every migration, is idempotent, and
// refuses to run without a DATABASE_URL.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);
const root = resolve(import.meta.dirname, '../..');
const journal = JSON.parse(readFileSync(resolve(root, 'drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
const migrations = journal.entries.length;

function migrate(env: Record<string, string>) {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'functions/ops/db-migrate.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

describePg('npm run db:migrate', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres({ database: 'tooldir_migrate' });
  });
  afterAll(() => server?.close());

  it('applies every migration once, then reports nothing new', async () => {
    const first = await migrate({ DATABASE_URL: server.connectionString });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`: ${migrations} new migration(s), ${migrations} applied in total`);
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
      );
      expect(tables.rows.map((r) => r.name)).toEqual(
        expect.arrayContaining(['accounts', 'api_keys', 'sites', 'pending_submissions', 'quota_usage', 'site_history']),
      );
      const trigger = await client.query(
        `SELECT 1 FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = 'sites'::regclass`,
      );
      expect(trigger.rowCount).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
    const second = await migrate({ DATABASE_URL: server.connectionString });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`: 0 new migration(s), ${migrations} applied in total`);
  });

  it('refuses to run without DATABASE_URL (exit 2) and never prints a password', async () => {
    const missing = await migrate({});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('DATABASE_URL');
    const wrong = await migrate({
      DATABASE_URL: `postgres://postgres:s3cret-pass@127.0.0.1:${server.port}/nonexistent_db`,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('migration failed');
    expect(wrong.stderr).not.toContain('s3cret-pass');
  });
});
