// Bulk writes stay linear (issue 27, docs/bench.md "Bulk writes"): the statements of test/helpers/bulk-statements.ts
// (one statement over every live tool: changing nothing, changing a public field, adding and removing a category,
// a status flip both ways), a rewrite of every tool's duplicate key in one UPDATE and the key backfill with every
// key stale (src/submissions/backfill-keys.ts, 1,000 rows per UPDATE), timed on a real PostgreSQL at growing sizes of the search corpus
// (test/helpers/search-corpus.ts). Target: at each size, at most 6x the time of the size a quarter as big.
//
//   BENCH_BULK_SIZES      tools per database (default 5000,20000,25000,100000: 20,000 against 5,000 and
//                         100,000 against 25,000; 250000,1000000 is the million run)
//   BENCH_BULK_ROUNDS     rounds per size (default 3; the median and the slowest are shown)
//   BENCH_BULK_TIMEOUT_S  statement_timeout of a timed statement (default 900): a statement past it is a failure
//   BENCH_DATABASE_URL    a PostgreSQL server to use instead of a throwaway one (a database per size is created)
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
import { type BenchReport, runStandalone } from './lib/results';

const MAX_GROWTH = 6;
const KEY_REWRITE = "rewrite every tool's duplicate key (one UPDATE)";
const KEY_BACKFILL = 'key backfill, every key stale (1,000 rows per UPDATE)';

interface Measurement {
  size: number;
  statement: string;
  wallMs: number[];
  /** CPU time of the database backend that ran it (undefined where /proc cannot be read). */
  cpuMs: (number | undefined)[];
  rows: number;
  failed?: string;
}

const list = (value: string | undefined) => value?.split(',').map((v) => Number(v.trim())).filter((n) => n > 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

/** ns of CPU the backend `pid` has run (/proc/<pid>/schedstat), or undefined. */
function backendCpuNs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

async function timed(pid: number, run: () => Promise<number>): Promise<{ wallMs: number; cpuMs?: number; rows: number }> {
  const cpu0 = backendCpuNs(pid);
  const started = performance.now();
  const rows = await run();
  const wallMs = performance.now() - started;
  const cpu1 = backendCpuNs(pid);
  return { wallMs, cpuMs: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / 1e6 : undefined, rows };
}

/** A fresh database of `size` corpus tools, migrated as the Node entry opens one. */
async function corpusDatabase(serverUrl: string, size: number): Promise<{ url: string; opened: OpenedDb; loadSeconds: number }> {
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

async function measureSize(serverUrl: string, size: number, rounds: number, timeoutS: number): Promise<{ measured: Measurement[]; loadSeconds: number }> {
  const { url, opened, loadSeconds } = await corpusDatabase(serverUrl, size);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const measured = new Map<string, Measurement>();
  const record = (statement: string, result: { wallMs: number; cpuMs?: number; rows: number }) => {
    const m = measured.get(statement) ?? { size, statement, wallMs: [], cpuMs: [], rows: result.rows };
    m.wallMs.push(result.wallMs);
    m.cpuMs.push(result.cpuMs);
    measured.set(statement, m);
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
      await client.query('VACUUM (ANALYZE) sites, site_categories, search_words, site_history, webhook_deliveries');
      await client.query('CHECKPOINT');
      await client.query(`SET statement_timeout = '${timeoutS}s'`);
    };
    for (let round = 1; round <= rounds; round++) {
      for (const statement of [...bulkStatements(round), { name: KEY_REWRITE, sql: `UPDATE sites SET normalized_name = normalized_name || ' ${round}'` }]) {
        await settle();
        record(statement.name, await timed(pid, async () => (await client.query(statement.sql)).rowCount ?? 0));
      }
      await settle();
      const backfillPid = Number((await queryRows<{ pid: number }>(opened.db, sql`SELECT pg_backend_pid() AS pid`))[0]!.pid);
      record(KEY_BACKFILL, await timed(backfillPid, async () => (await runRequestedKeyBackfill(opened.db, { force: true }))?.updated ?? 0));
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
  const rounds = Math.max(1, Number(process.env.BENCH_BULK_ROUNDS ?? 3));
  const timeoutS = Number(process.env.BENCH_BULK_TIMEOUT_S ?? 900);
  const notes: string[] = [`load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`];
  let server: PostgresServer | undefined;
  let serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    if (!findPostgresBinaries()) throw new Error('PostgreSQL is not installed (apt-get install postgresql); the bulk-writes bench needs it');
    server = await startPostgres({ database: 'tooldir_bench', settings: { shared_buffers: '256MB' } });
    serverUrl = server.connectionString;
  }
  const all: Measurement[] = [];
  try {
    for (const size of sizes) {
      const { measured, loadSeconds } = await measureSize(serverUrl, size, rounds, timeoutS);
      all.push(...measured);
      notes.push(`${size} tools: loaded in ${loadSeconds.toFixed(0)} s; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    }
  } finally {
    await server?.close();
  }
  return report(all, sizes, notes);
}

function report(all: Measurement[], sizes: number[], notes: string[]): BenchReport {
  const find = (size: number, statement: string) => all.find((m) => m.size === size && m.statement === statement && !m.failed);
  const cpuMedian = (m: Measurement) => {
    const cpu = m.cpuMs.filter((c): c is number => c !== undefined);
    return cpu.length ? median(cpu) : undefined;
  };
  const rows = all.map((m) => {
    const quarter = find(m.size / 4, m.statement);
    const cpu = cpuMedian(m);
    const quarterCpu = quarter && cpuMedian(quarter);
    return {
      tools: m.size,
      statement: m.statement,
      'rows written': m.rows,
      'median s': m.wallMs.length ? (median(m.wallMs) / 1000).toFixed(2) : '',
      'slowest s': m.wallMs.length ? (Math.max(...m.wallMs) / 1000).toFixed(2) : '',
      'db CPU s': cpu === undefined ? '' : (cpu / 1000).toFixed(2),
      '× ¼ size': quarter ? (median(m.wallMs) / median(quarter.wallMs)).toFixed(2) : '',
      '× ¼ size, CPU': quarterCpu && cpu !== undefined ? (cpu / quarterCpu).toFixed(2) : '',
    };
  });
  const targets: BenchReport['targets'] = [];
  for (const m of all) {
    if (m.failed) {
      targets.push({ what: `${m.size} tools: every statement finishes`, ok: false, detail: m.failed });
      continue;
    }
    const quarter = sizes.includes(m.size / 4) ? find(m.size / 4, m.statement) : undefined;
    if (!sizes.includes(m.size / 4)) continue;
    const ratio = quarter ? median(m.wallMs) / median(quarter.wallMs) : Infinity;
    targets.push({
      what: `${m.statement}: ${m.size} tools ≤ ${MAX_GROWTH}× ${m.size / 4}`,
      ok: ratio <= MAX_GROWTH,
      detail: quarter ? `${ratio.toFixed(2)}× (${(median(m.wallMs) / 1000).toFixed(2)} s against ${(median(quarter.wallMs) / 1000).toFixed(2)} s)` : 'the smaller size did not finish',
    });
  }
  const largest = Math.max(...sizes);
  for (const m of all.filter((x) => x.size === largest && !x.failed && x.wallMs.length)) {
    if (largest >= 1_000_000) continue;
    notes.push(`extrapolated linearly to 1,000,000 tools: ${m.statement} ≈ ${((median(m.wallMs) / largest) * 1e6 / 1000 / 60).toFixed(1)} min`);
  }
  notes.push('each timed statement ran after VACUUM (ANALYZE) and CHECKPOINT (untimed); PostgreSQL 15, shared_buffers 256 MB, fsync off');
  return { name: 'bulk-writes', rows, targets, notes, data: all };
}

await runStandalone(import.meta.url, benchBulkWrites);
