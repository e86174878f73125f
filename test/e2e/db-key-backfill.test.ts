// The duplicate-key backfill against a real PostgreSQL server, through `npm run db:migrate` as an operator runs
// it: rows stored under the old URL and name rules get the current keys, rows that would now share a key are
// reported (never merged), a request runs once, and `-- --backfill-keys` runs it again after a decision. Since
// issue 27 (migration 0032) the same run also stores URLs as parsed, folds account addresses' domains and clears
// OAuth client names that show nothing.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { openPglite } from '../../src/db/node-clients';
import { openNodePostgres } from '../../src/db/node-clients';
import { withRequestedKeyBackfill } from '../../src/submissions/requested-key-backfill';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);
const root = resolve(import.meta.dirname, '../..');

function migrate(env: Record<string, string>, args: string[] = []) {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'functions/ops/db-migrate.ts', ...args], {
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

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ACCOUNT_A = id(901);
const ACCOUNT_B = id(902);

/** Sites as the old rules stored them: keys computed before http = https, %-decoding, index files, confusables. */
const oldSites = [
  // [id, url, name, old canonical_url, old normalized_name, submitted minutes ago]
  [
    id(1),
    'https://www.dup.example/%61pp/index.html',
    'Canon Base',
    'https://dup.example/%61pp/index.html',
    'canon base',
    60,
  ],
  [id(2), 'http://dup.example/app', '\u0421anon Base', 'http://dup.example/app', '\u0441anon base', 50],
  [id(3), 'http://plain.example/', 'Plain Tool', 'http://plain.example', 'plain tool', 40],
  // id 4 wants the key id 5 holds under a wrong old key; id 5 moves off it in the same run.
  [id(4), 'http://z.example/', 'Zed Tool', 'http://z.example', 'zed tool', 30],
  [id(5), 'https://b5.example', 'Bee Tool', 'https://z.example', 'bee tool', 20],
  [id(6), 'https://ok.example', 'Fine Tool', 'https://ok.example', 'fine tool', 10],
  // Stored before repeated slashes, index files in any case and the braille blank counted as nothing (migration 0027).
  [
    id(7),
    'https://slash.example//tool/INDEX.HTML',
    'Blank\u2800 Tool',
    'https://slash.example//tool/INDEX.HTML',
    'blank\u2800 tool',
    5,
  ],
  // Stored as typed before issue 27: a URL parsers read differently, and a braille blank as the space (once nothing).
  [
    id(8),
    'http://tool.localhost:8000\\@evil.example/',
    'Acme\u2800Writer',
    'http://tool.localhost:8000\\@evil.example',
    'acmewriter',
    3,
  ],
] as const;

describePg('duplicate-key backfill (npm run db:migrate)', () => {
  let server: PostgresServer;
  let client: pg.Client;

  beforeAll(async () => {
    server = await startPostgres({ database: 'tooldir_backfill' });
    await (await openNodePostgres(server.connectionString, { max: 1 })).close(); // migrated; the initial request ran on no rows
    client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    await client.query(`INSERT INTO accounts (id, email) VALUES ($1, 'a@example.com'), ($2, 'b@example.com')`, [
      ACCOUNT_A,
      ACCOUNT_B,
    ]);
    for (const [siteId, url, name, canonical, normalized, minutesAgo] of oldSites) {
      await client.query(
        `INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, submitted_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', 'membership', 'basic', now() - make_interval(mins => $7))`,
        [siteId, ACCOUNT_A, name, url, canonical, normalized, minutesAgo],
      );
    }
    await client.query(
      `UPDATE sites SET metadata = '{"finalUrl":"http://plain.example/index.html","finalCanonical":"http://plain.example/index.html"}'::jsonb
       WHERE id = $1`,
      [id(3)],
    );
    const pending = [
      [id(11), ACCOUNT_A, 'https://pend.example/x', 'Pending Tool', 'https://pend.example/x', 'pending tool', 30],
      [id(12), ACCOUNT_A, 'http://pend.example/x', 'Pending Tool', 'http://pend.example/x', 'pending tool', 20],
      [
        id(13),
        ACCOUNT_B,
        'http://pend.example/x',
        '\u0420ending Tool',
        'http://pend.example/x',
        '\u0440ending tool',
        10,
      ],
    ] as const;
    for (const [pendingId, accountId, url, name, canonical, normalized, minutesAgo] of pending) {
      await client.query(
        `INSERT INTO pending_submissions (id, account_id, name, url, canonical_url, normalized_name, plan, reason,
           checkout_session_id, checkout_url, expires_at, submitted_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'basic', 'no_membership', $8, 'https://checkout.example/x', now() + interval '1 day',
           now() - make_interval(mins => $7))`,
        [pendingId, accountId, name, url, canonical, normalized, minutesAgo, `cs_test_${pendingId}`],
      );
    }
    // Issue 27: an account at an IDN stored as typed, and an OAuth client whose name shows nothing.
    await client.query(`INSERT INTO accounts (email) VALUES ('c@bücher.example')`);
    await client.query(
      `INSERT INTO oauth_clients (id, kind, name, redirect_uris) VALUES ('tdcl_blank', 'registered', '\u2800 \u3164', '[]'::jsonb)`,
    );
    await client.query(`INSERT INTO duplicate_key_backfills (rules) VALUES ('test: rows stored under the old rules')`);
  });

  afterAll(async () => {
    await client?.end();
    await server?.close();
  });

  const keysOf = async (table: 'sites' | 'pending_submissions') =>
    Object.fromEntries(
      (
        await client.query<{ id: string; canonical_url: string; normalized_name: string }>(
          `SELECT id, canonical_url, normalized_name FROM ${table}`,
        )
      ).rows.map((r) => [r.id, [r.canonical_url, r.normalized_name]]),
    );

  it('recomputes every key it can, reports each row that would share one, and changes nothing else', async () => {
    const run = await migrate({ DATABASE_URL: server.connectionString });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(': 0 new migration(s)');
    // sites: 1 url, 3 url, 4 url, 5 url, 7 url, 7 name, 8 url, 8 name, 3 finalCanonical; pending: 13 url, 13 name.
    expect(run.stdout).toContain(
      'duplicate keys recomputed: 11 key(s) changed across 8 site(s) and 3 pending record(s)',
    );
    // URLs of 5, 6 (no path: `/` added) and 8 (the backslash read as a slash); one IDN address; one blank name.
    expect(run.stdout).toContain(
      'stored URLs rewritten to their parsed form: 3; account addresses folded: 1; blank OAuth client names cleared: 1',
    );
    const collisions = run.stdout.split('\n').filter((line) => line.includes('collision:'));
    expect(collisions).toEqual([
      `  collision: sites ${id(2)} canonical_url would be "https://dup.example/app", held by ${id(1)}; it keeps its old key`,
      `  collision: sites ${id(2)} normalized_name would be "canon base", held by ${id(1)}; it keeps its old key`,
      `  collision: pending_submissions ${id(12)} canonical_url would be "https://pend.example/x", held by ${id(11)}; it keeps its old key`,
    ]);

    expect(await keysOf('sites')).toEqual({
      [id(1)]: ['https://dup.example/app', 'canon base'],
      [id(2)]: ['http://dup.example/app', '\u0441anon base'],
      [id(3)]: ['https://plain.example', 'plain tool'],
      [id(4)]: ['https://z.example', 'zed tool'],
      [id(5)]: ['https://b5.example', 'bee tool'],
      [id(6)]: ['https://ok.example', 'fine tool'],
      [id(7)]: ['https://slash.example/tool', 'blank tool'],
      [id(8)]: ['https://tool.localhost:8000/@evil.example', 'acme writer'],
    });
    expect(await keysOf('pending_submissions')).toEqual({
      [id(11)]: ['https://pend.example/x', 'pending tool'],
      [id(12)]: ['http://pend.example/x', 'pending tool'],
      [id(13)]: ['https://pend.example/x', 'pending tool'],
    });
    const sites = await client.query<{ id: string; name: string; url: string; final: string }>(
      `SELECT id, name, url, metadata->>'finalCanonical' AS final FROM sites ORDER BY id`,
    );
    expect(sites.rows.find((r) => r.id === id(3))?.final).toBe('https://plain.example');
    // The record keeps the name as submitted and the URL as the parser reads what was submitted.
    expect(sites.rows.map((r) => [r.name, r.url])).toEqual(oldSites.map(([, url, name]) => [name, new URL(url).href]));
    expect(sites.rows.find((r) => r.id === id(8))?.url).toBe('http://tool.localhost:8000/@evil.example/');
    expect((await client.query(`SELECT 1 FROM accounts WHERE email = 'c@xn--bcher-kva.example'`)).rowCount).toBe(1);
    expect((await client.query(`SELECT name FROM oauth_clients WHERE id = 'tdcl_blank'`)).rows).toEqual([
      { name: null },
    ]);

    const request = await client.query<{ done: boolean; report: { collisions: unknown[]; updated: number } }>(
      `SELECT done_at IS NOT NULL AS done, report FROM duplicate_key_backfills WHERE rules LIKE 'test:%'`,
    );
    expect(request.rows[0]).toMatchObject({
      done: true,
      report: { updated: 11, urlsRewritten: 3, emailsFolded: 1, clientNamesCleared: 1 },
    });
    expect(request.rows[0]?.report.collisions).toHaveLength(3);
  });

  it('runs a request once: the next db:migrate leaves the keys alone', async () => {
    const before = await keysOf('sites');
    const again = await migrate({ DATABASE_URL: server.connectionString });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('duplicate keys');
    expect(await keysOf('sites')).toEqual(before);
  });

  it('-- --backfill-keys runs it again once an operator removed the row that held the key', async () => {
    await client.query(`DELETE FROM sites WHERE id = $1`, [id(1)]);
    const run = await migrate({ DATABASE_URL: server.connectionString }, ['--backfill-keys']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'duplicate keys recomputed: 2 key(s) changed across 7 site(s) and 3 pending record(s)',
    );
    expect(run.stdout).toContain(
      'stored URLs rewritten to their parsed form: 0; account addresses folded: 0; blank OAuth client names cleared: 0',
    );
    expect(run.stdout).toContain(`collision: pending_submissions ${id(12)}`);
    expect((await keysOf('sites'))[id(2)]).toEqual(['https://dup.example/app', 'canon base']);
  });

  it('refuses an unknown argument (exit 2)', async () => {
    const run = await migrate({ DATABASE_URL: server.connectionString }, ['--backfil-keys']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown argument');
  });
});

describe('local mode (PGlite): opening the data dir serves a pending request', () => {
  it('recomputes stale keys on the next start and reports it on the opened database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooldir-backfill-'));
    try {
      cpSync(inject('pgliteTemplate'), join(dir, 'pglite'), { recursive: true });
      const before = await withRequestedKeyBackfill(await openPglite(join(dir, 'pglite')));
      expect(before.keyBackfill).toBeUndefined(); // the template served the migration's request already
      await queryRows(
        before.db,
        sql`INSERT INTO accounts (id, email) VALUES (${ACCOUNT_A}::uuid, 'local@example.com')`,
      );
      await queryRows(
        before.db,
        sql`INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan)
            VALUES (${id(21)}::uuid, ${ACCOUNT_A}::uuid, ${'\u0421anon Local'}, 'http://local.example/index.php',
              'http://local.example/index.php', ${'\u0441anon local'}, 'queued', 'membership', 'basic')`,
      );
      await queryRows(before.db, sql`INSERT INTO duplicate_key_backfills (rules) VALUES ('test: local upgrade')`);
      await before.close();

      const after = await withRequestedKeyBackfill(await openPglite(join(dir, 'pglite')));
      try {
        expect(after.keyBackfill).toMatchObject({
          rules: ['test: local upgrade'],
          sites: 1,
          updated: 2,
          collisions: [],
        });
        const [row] = await queryRows<{ canonical_url: string; normalized_name: string; name: string }>(
          after.db,
          sql`SELECT canonical_url, normalized_name, name FROM sites WHERE id = ${id(21)}::uuid`,
        );
        expect(row).toEqual({
          canonical_url: 'https://local.example',
          normalized_name: 'canon local',
          name: '\u0421anon Local',
        });
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
