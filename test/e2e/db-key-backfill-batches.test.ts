// The duplicate-key backfill writes a batch of rows per statement (src/submissions/backfill-key-writes.ts), so a
// backfill over a million tools takes minutes, not hours. On a real PostgreSQL server: batches larger than one
// statement's worth write every stale key and report a collision that spans two batches, and a submit that takes
// a key while a batch is writing makes that batch fall back to row-by-row writes, which report the row that
// could not move instead of failing the run.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openNodePostgres, type OpenedDb } from '../../src/db/node-clients';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import { batchWrite, KEY_WRITE_BATCH, type KeyColumn } from '../../src/submissions/backfill-key-writes';
import { backfillDuplicateKeys } from '../../src/submissions/backfill-keys';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('duplicate-key backfill in batches (real PostgreSQL)', () => {
  let server: PostgresServer;
  let opened: OpenedDb;
  let client: pg.Client;
  let account: string;

  beforeAll(async () => {
    server = await startPostgres({ database: 'tooldir_backfill_batches' });
    opened = await openNodePostgres(server.connectionString, { max: 2 });
    client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    account = (
      await client.query<{ id: string }>(`INSERT INTO accounts (email) VALUES ('batches@example.com') RETURNING id`)
    ).rows[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await opened?.close();
    await server?.close();
  });

  /** `count` live-less sites named `<prefix> <i>`, whose stored name keys are stale (upper case); oldest first. */
  const insertStale = (prefix: string, count: number, offset = 0) =>
    client.query(
      `INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, submitted_at)
       SELECT gen_random_uuid(), $1, $2 || ' ' || i, 'https://' || $3 || '-' || i || '.example', 'https://' || $3 || '-' || i || '.example',
         upper($2) || ' ' || i, 'queued', 'membership', 'basic', now() - make_interval(secs => 100000 - i - $4)
       FROM generate_series(1, $5) AS i`,
      [account, prefix, prefix.toLowerCase().replace(/ /g, '-'), offset, count],
    );

  it('writes every stale key across several batches and reports a collision that spans two', async () => {
    const count = KEY_WRITE_BATCH * 2 + 500;
    await insertStale('Batch Tool', count);
    // The last row's name is the first row's with other spacing: both want `batch tool 1`, the older one wins.
    const last = (
      await client.query<{ id: string }>(`UPDATE sites SET name = 'Batch  Tool 1' WHERE name = $1 RETURNING id`, [
        `Batch Tool ${count}`,
      ])
    ).rows[0]!.id;

    const report = await backfillDuplicateKeys(opened.db);

    expect(report.updated).toBe(count - 1);
    expect(report.collisions).toEqual([
      { table: 'sites', id: last, column: 'normalized_name', key: 'batch tool 1', heldBy: expect.any(String) },
    ]);
    const stale = await client.query(`SELECT id FROM sites WHERE name LIKE 'Batch%' AND normalized_name LIKE 'BATCH%'`);
    expect(stale.rows.map((r) => r.id)).toEqual([last]);
    // Run again: nothing left to write, the collision still reported.
    const again = await backfillDuplicateKeys(opened.db);
    expect(again.updated).toBe(0);
    expect(again.collisions).toHaveLength(1);
  });

  it('a key a submit takes while its batch writes: the batch falls back to row by row and reports that one row', async () => {
    await insertStale('Race Tool', 50, 1);
    // Another connection takes the key of Race Tool 7 and holds its transaction open, so the batch's NOT EXISTS
    // (which sees only committed rows) lets the write go ahead and the unique index makes it wait.
    const racer = new pg.Client({ connectionString: server.connectionString });
    await racer.connect();
    try {
      await racer.query('BEGIN');
      const taker = (
        await racer.query<{ id: string }>(
          `INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan)
           VALUES (gen_random_uuid(), $1, 'Race Taker', 'https://race-taker.example', 'https://race-taker.example', 'race tool 7', 'queued', 'membership', 'basic')
           RETURNING id`,
          [account],
        )
      ).rows[0]!.id;
      const running = backfillDuplicateKeys(opened.db);
      await waitUntilALockIsAwaited(client);
      await racer.query('COMMIT');
      const report = await running;

      const raced = (await client.query<{ id: string }>(`SELECT id FROM sites WHERE name = 'Race Tool 7'`)).rows[0]!.id;
      expect(report.collisions).toContainEqual({
        table: 'sites',
        id: raced,
        column: 'normalized_name',
        key: 'race tool 7',
        heldBy: taker,
      });
      const stale = await client.query<{ name: string }>(
        `SELECT name FROM sites WHERE name LIKE 'Race Tool%' AND normalized_name LIKE 'RACE%'`,
      );
      expect(stale.rows.map((r) => r.name)).toEqual(['Race Tool 7']);
    } finally {
      await racer.end();
    }
  });
  // A batch asks, for each of its rows, whether another row holds the new key. That lookup must be the unique index's:
  // a condition the partial index does not imply (sites: `WHERE withdrawn_at IS NULL`) leaves PostgreSQL only a read of
  // the whole table per row, which the planner chooses once the batch looks small (one 1,000-row batch over 250,000
  // tools ran for more than nine minutes). With sequential scans priced out, a plan still holding one has no other way.
  it('looks up the holder of each new key through the unique index, for every key column', async () => {
    const plan = async (statement: SQL) => {
      const one = await openNodePostgres(server.connectionString, { max: 1 });
      try {
        await queryRows(one.db, sql`SET enable_seqscan = off`);
        const rows = await queryRows<{ 'QUERY PLAN': string }>(one.db, sql`EXPLAIN ${statement}`);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await one.close();
      }
    };
    const rows = [
      { id: crypto.randomUUID(), scope: account, old: 'https://old.example/', next: 'https://new.example/' },
    ];
    const columns: KeyColumn[] = [
      { table: 'sites', column: 'canonical_url', unique: true },
      { table: 'sites', column: 'normalized_name', unique: true },
      { table: 'pending_submissions', column: 'canonical_url', unique: true },
    ];
    for (const target of columns) {
      const shown = await plan(batchWrite(target, rows));
      expect(shown, `${target.table}.${target.column}`).toMatch(/Index (Only )?Scan using \S+ on \S+ o\b/);
      expect(shown, `${target.table}.${target.column}`).not.toMatch(/Seq Scan on \S+ o\b/);
    }
    // The rule catches the shape that was slow: the same lookup without the partial index's condition.
    const old = await plan(
      sql`UPDATE sites t SET canonical_url = v.next FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id uuid, old text, next text)
        WHERE t.id = v.id AND t.canonical_url = v.old AND NOT EXISTS (SELECT 1 FROM sites o WHERE o.canonical_url = v.next) RETURNING t.id`,
    );
    expect(old).toMatch(/Seq Scan on sites o\b/);
  });
});

/** Until some backend waits for a lock (the batch UPDATE waiting on the uncommitted unique key); fails after 20 s. */
async function waitUntilALockIsAwaited(client: pg.Client): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const waiting = await client.query(
      `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE%'`,
    );
    if (waiting.rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the backfill never waited for the racing key');
}
