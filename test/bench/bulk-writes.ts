// Bulk writes stay linear (issue 27, docs/bench.md "Bulk writes"): the statements of test/helpers/bulk-statements.ts
// (one statement over every live tool: changing nothing, changing a public field, adding and removing a category,
// a status flip both ways), a rewrite of every tool's duplicate key in one UPDATE and the key backfill with every
// key stale (src/submissions/backfill-keys.ts, 1,000 rows per UPDATE), timed on a real PostgreSQL at growing sizes of the search corpus
// (test/helpers/search-corpus.ts). Target: at each size, at most 6x the time of the size a quarter as big.
//
//   BENCH_BULK_SIZES      tools per database (default 5000,20000,25000,100000: 20,000 against 5,000 and
//                         100,000 against 25,000; 250000,1000000 is the million run)
//   BENCH_BULK_ROUNDS     rounds per size (default 5 up to 25,000 tools, 3 above; best, median and slowest are shown)
//   BENCH_BULK_TIMEOUT_S  statement_timeout of a timed statement (default 900): a statement past it is a failure
//   BENCH_DATABASE_URL    a PostgreSQL server to use instead of a throwaway one (a database per size is created)
//   BENCH_BULK_ONLY       comma-separated words; only the statements whose name contains one of them run (e.g.
//                         "backfill,public field": the million run times the key backfill and a migration-shaped UPDATE)
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import { openNodePostgres, type OpenedDb } from '../../src/db/node-clients';
import { runRequestedKeyBackfill, withRequestedKeyBackfill } from '../../src/submissions/requested-key-backfill';
import { findPostgresBinaries, startPostgres, type PostgresServer } from '../helpers/services/postgres';
import { loadSearchCorpus } from '../helpers/search-corpus-load';
import { bulkCategorySql, bulkStatements } from '../helpers/bulk-statements';
import { growthReport, type Measurement } from './lib/bulk-growth-report';
import { type BenchReport, runStandalone } from './lib/results';

const KEY_REWRITE = "rewrite every tool's duplicate key (one UPDATE)";
const KEY_BACKFILL = 'key backfill, every key stale (1,000 rows per UPDATE)';

/**
 * Merges the GIN indexes' pending lists (the search vectors', the vocabulary's) into the indexes. Run after each
 * timed statement, in its time: a statement that stays under gin_pending_list_limit (4 MB, about 10,000 changed
 * tools) otherwise leaves that merge to the untimed VACUUM before the next one, and the small sizes would look
 * cheaper per row than they are.
 */
const FLUSH_GIN_PENDING_LISTS = `SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i
  JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'gin'`;

const only = process.env.BENCH_BULK_ONLY?.split(',')
  .map((word) => word.trim())
  .filter(Boolean);
/** Whether the statement named `name` runs (BENCH_BULK_ONLY; every statement without it). */
const wanted = (name: string) => !only?.length || only.some((word) => name.includes(word));

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => Number(v.trim()))
    .filter((n) => n > 0);

/** ns of CPU the backend `pid` has run (/proc/<pid>/schedstat), or undefined. */
function backendCpuNs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

/**
 * Wall time and CPU time of `run`: the database backend `pid`'s, plus this process's when the work is partly
 * ours (the key backfill computes keys in JavaScript).
 */
async function timed(
  pid: number,
  run: () => Promise<number>,
  countOurs = false,
): Promise<{ wallMs: number; cpuMs?: number; rows: number }> {
  const cpu0 = backendCpuNs(pid);
  const ours0 = process.cpuUsage();
  const started = performance.now();
  const rows = await run();
  const wallMs = performance.now() - started;
  const cpu1 = backendCpuNs(pid);
  const ours = process.cpuUsage(ours0);
  const oursMs = countOurs ? (ours.user + ours.system) / 1000 : 0;
  return { wallMs, cpuMs: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / 1e6 + oursMs : undefined, rows };
}

/** A fresh database of `size` corpus tools, migrated as the Node entry opens one. */
async function corpusDatabase(
  serverUrl: string,
  size: number,
): Promise<{ url: string; opened: OpenedDb; loadSeconds: number }> {
  const name = `tooldir_bulk_${size}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened = await withRequestedKeyBackfill(await openNodePostgres(url.toString(), { max: 1 }));
  const loaded = await loadSearchCorpus(opened.db, {
    tools: size,
    seed: Number(process.env.BENCH_CORPUS_SEED ?? 1),
    progress: (done) => {
      if (done % 100_000 === 0 || done === size) process.stdout.write(`  ${size}: loaded ${done} tools\n`);
    },
  });
  return { url: url.toString(), opened, loadSeconds: loaded.seconds };
}

async function measureSize(
  serverUrl: string,
  size: number,
  rounds: number,
  timeoutS: number,
): Promise<{ measured: Measurement[]; loadSeconds: number }> {
  const { url, opened, loadSeconds } = await corpusDatabase(serverUrl, size);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const measured = new Map<string, Measurement>();
  const entry = (statement: string) =>
    measured.get(statement) ??
    measured.set(statement, { size, statement, wallMs: [], cpuMs: [], rows: 0 }).get(statement)!;
  /** Times one statement; one cancelled by statement_timeout is a failure of that statement, and the run goes on. */
  const record = async (statement: string, run: () => Promise<{ wallMs: number; cpuMs?: number; rows: number }>) => {
    const m = entry(statement);
    try {
      const result = await run();
      m.wallMs.push(result.wallMs);
      m.cpuMs.push(result.cpuMs);
      m.rows = result.rows;
    } catch (error) {
      if ((error as { code?: string }).code !== '57014') throw error;
      m.failed = `cancelled after ${timeoutS} s (statement_timeout)`;
    }
  };
  try {
    const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    await client.query(bulkCategorySql);
    // An endpoint on the corpus's account: every status change also writes a webhook delivery, as in production.
    await client.query(`INSERT INTO webhooks (id, account_id, slot, url, events, secret)
      SELECT gen_random_uuid(), account_id, 1, 'https://hooks.example/bulk', '{site.status_changed}', 'whsec_bulk' FROM sites LIMIT 1`);
    // Each timed statement starts from a vacuumed table and a fresh checkpoint, so neither autovacuum nor a
    // checkpoint owed by the previous statement lands in its time.
    const settle = async () => {
      await client.query('SET statement_timeout = 0');
      await client.query(
        'VACUUM (ANALYZE) sites, site_categories, search_lexemes, search_vocabulary, search_postings, site_history, webhook_deliveries, listing_changes',
      );
      await client.query('CHECKPOINT');
      await client.query(`SET statement_timeout = '${timeoutS}s'`);
    };
    for (let round = 1; round <= rounds; round++) {
      for (const statement of [
        ...bulkStatements(round),
        { name: KEY_REWRITE, sql: `UPDATE sites SET normalized_name = normalized_name || ' ${round}'` },
      ].filter((s) => wanted(s.name))) {
        await settle();
        await record(statement.name, () =>
          timed(pid, async () => {
            const rows = (await client.query(statement.sql)).rowCount ?? 0;
            await client.query(FLUSH_GIN_PENDING_LISTS);
            return rows;
          }),
        );
      }
      if (!wanted(KEY_BACKFILL)) {
        process.stdout.write(`  ${size}: round ${round} of ${rounds} done\n`);
        continue;
      }
      await settle();
      const backfillPid = Number(
        (await queryRows<{ pid: number }>(opened.db, sql`SELECT pg_backend_pid() AS pid`))[0]!.pid,
      );
      await record(KEY_BACKFILL, () =>
        timed(
          backfillPid,
          async () => {
            const rows = (await runRequestedKeyBackfill(opened.db, { force: true }))?.updated ?? 0;
            await queryRows(opened.db, sql.raw(FLUSH_GIN_PENDING_LISTS));
            return rows;
          },
          true,
        ),
      );
      process.stdout.write(`  ${size}: round ${round} of ${rounds} done\n`);
    }
  } catch (error) {
    const failed = error instanceof Error ? error.message : String(error);
    measured.set('(failed)', { size, statement: `stopped: ${failed}`, wallMs: [], cpuMs: [], rows: 0, failed });
  } finally {
    await client.end();
    await opened.close();
  }
  return { measured: [...measured.values()], loadSeconds };
}

export async function benchBulkWrites(): Promise<BenchReport> {
  const sizes = (list(process.env.BENCH_BULK_SIZES) ?? [5_000, 20_000, 25_000, 100_000]).sort((a, b) => a - b);
  // The small sizes take seconds: more rounds there make their best round a steadier baseline.
  const roundsAt = (size: number) => Math.max(1, Number(process.env.BENCH_BULK_ROUNDS ?? (size <= 25_000 ? 5 : 3)));
  const timeoutS = Number(process.env.BENCH_BULK_TIMEOUT_S ?? 900);
  const notes: string[] = [
    `load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  ];
  let server: PostgresServer | undefined;
  let serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    if (!findPostgresBinaries())
      throw new Error('PostgreSQL is not installed (apt-get install postgresql); the bulk-writes bench needs it');
    server = await startPostgres({ database: 'tooldir_bench', settings: { shared_buffers: '256MB' } });
    serverUrl = server.connectionString;
  }
  const all: Measurement[] = [];
  try {
    for (const size of sizes) {
      const { measured, loadSeconds } = await measureSize(serverUrl, size, roundsAt(size), timeoutS);
      all.push(...measured);
      notes.push(
        `${size} tools: loaded in ${loadSeconds.toFixed(0)} s; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      );
    }
  } finally {
    await server?.close();
  }
  return growthReport(all, sizes, notes);
}

await runStandalone(import.meta.url, benchBulkWrites);
