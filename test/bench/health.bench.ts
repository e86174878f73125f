// The health re-check at scale (docs/health.md "Cost"): the due-tools claim at 100,000 live tools on PostgreSQL
// (its plan, p50/p95 of claiming a round of 1,000 from a day whose due times are spread by the slot hash), the
// spread itself (tools due per minute), and a round of 1,000 checks against loopback sites (checks per second and
// database statements per check, counted by the server's committed transactions).
import { loadavg } from 'node:os';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { openNodePostgres } from '../../src/db/node-clients';
import { queryRows } from '../../src/db/client';
import { loadConfig } from '../../src/config';
import { buildDeps } from '../../src/build-deps';
import { createLogger } from '../../src/log';
import { claimStatement, claimTools } from '../../src/health/health-store';
import { runHealthRound } from '../../src/health/run-round';
import { createPackagePublicSuffixes } from '../../functions/node/public-suffixes';
import { startPostgres } from '../helpers/services/postgres';
import { startHealthSites } from '../helpers/health-sites';
import { type BenchReport, runStandalone } from './lib/results';

const TOOLS = Number(process.env.BENCH_HEALTH_TOOLS ?? 100_000);
const ROUND = 1000;
const CLAIM_RUNS = 30;
/** A claim runs once a minute: it must cost a small fraction of that. */
const MAX_CLAIM_P95_MS = 100;

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

export async function benchHealth(): Promise<BenchReport> {
  const pg = await startPostgres({ database: 'tooldir_health' });
  const opened = await openNodePostgres(pg.connectionString, { max: 8 });
  const sites = await startHealthSites();
  try {
    const db = opened.db;
    await db.execute(
      sql`INSERT INTO accounts (id, email) VALUES ('00000000-0000-4000-8000-000000000001', 'bench@example.com')`,
    );
    // 100,000 live tools; the trigger gives each its row in site_health, due at its slot tomorrow.
    await db.execute(sql`INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, slug, live_url, published_at, metadata)
      SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 'Tool ' || g, 'https://tool-' || g || '.example/', 'https://tool-' || g || '.example/',
        'tool ' || g, 'live', 'payment', 'basic', 'tool-' || g, 'https://dir.example/tools/tool-' || g, now() - g * interval '1 minute', '{}'::jsonb
      FROM generate_series(1, ${TOOLS}) g`);
    await db.execute(sql`ANALYZE site_health`);
    await db.execute(sql`ANALYZE sites`);
    const perMinute = await queryRows<{ min: number; max: number; avg: number }>(
      db,
      sql`SELECT min(n)::int AS min, max(n)::int AS max, avg(n)::float AS avg FROM (
            SELECT count(*) AS n FROM site_health GROUP BY date_trunc('minute', next_check_at)) x`,
    );
    // Now is 12:00 tomorrow: half the day's tools are due; each claim takes the next 1,000 oldest (as rounds do).
    const tomorrowNoon = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000 + 12 * 3_600_000);
    // The plan of the whole claim statement a round runs (pick, move the leases, join the sites), rolled back so the
    // timed claims below start from the same day.
    let plan: { 'QUERY PLAN': string }[] = [];
    await db
      .transaction(async (tx) => {
        plan = await queryRows(
          tx as unknown as typeof db,
          sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${claimStatement(tomorrowNoon, { limit: ROUND })}`,
        );
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    if (plan.some((row) => /Seq Scan/.test(row['QUERY PLAN']))) throw new Error('the claim scans a whole table');
    const claimMs: number[] = [];
    for (let i = 0; i < CLAIM_RUNS; i++) {
      const start = performance.now();
      const claimed = await claimTools(db, tomorrowNoon, { limit: ROUND });
      claimMs.push(performance.now() - start);
      if (claimed.length !== ROUND) throw new Error(`claimed ${claimed.length}`);
    }

    // A round of 1,000 checks against loopback sites (robots.txt 404, the page 200).
    const names = Array.from({ length: ROUND }, (_, i) => `bench${i}`);
    for (const name of names) sites.set(name, { kind: 'up' });
    await db.execute(sql`UPDATE site_health SET next_check_at = NULL`);
    await db.execute(sql`WITH pick AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM sites LIMIT ${ROUND})
      UPDATE sites s SET url = 'http://bench' || pick.i || '.localhost:' || ${sites.port} || '/' FROM pick WHERE s.id = pick.id`);
    await db.execute(
      sql`UPDATE site_health h SET next_check_at = now() - interval '1 second' FROM sites s WHERE s.id = h.site_id AND s.url LIKE 'http://bench%'`,
    );
    const config = loadConfig({
      DATA_DIR: '/nonexistent',
      ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
      CRAWL_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'silent',
    });
    const deps = buildDeps(config, db, {
      log: createLogger('silent'),
      crawl: { ...sites, timeoutMs: 10_000 },
      publicSuffixes: createPackagePublicSuffixes(),
    });
    const commits = async () =>
      Number(
        (
          await queryRows<{ n: string }>(
            db,
            sql`SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()`,
          )
        )[0]!.n,
      );
    const before = await commits();
    const start = performance.now();
    const report = await runHealthRound(deps, { limit: ROUND });
    const seconds = (performance.now() - start) / 1000;
    // PostgreSQL 15 flushes an idle backend's counters to pg_stat_database up to 10 s later (PGSTAT_IDLE_INTERVAL):
    // wait for every pool connection's to arrive, or the count misses the last checks' commits.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const statements = (await commits()) - before - 2; // less the two reads of the counter
    const claimP95 = pct(claimMs, 95);
    return {
      name: 'health',
      rows: [
        {
          what: `claim ${ROUND} due of ${TOOLS} live tools`,
          p50_ms: pct(claimMs, 50).toFixed(2),
          p95_ms: claimP95.toFixed(2),
          runs: CLAIM_RUNS,
        },
        {
          what: 'tools due per minute (min / avg / max)',
          value: `${perMinute[0]!.min} / ${perMinute[0]!.avg.toFixed(1)} / ${perMinute[0]!.max}`,
        },
        {
          what: `round of ${report.checked} checks (6 at a time, loopback)`,
          seconds: seconds.toFixed(2),
          checks_per_s: (report.checked / seconds).toFixed(0),
          statements_per_check: (statements / report.checked).toFixed(3),
        },
      ],
      targets: [
        {
          what: `claim p95 ≤ ${MAX_CLAIM_P95_MS} ms`,
          ok: claimP95 <= MAX_CLAIM_P95_MS,
          detail: `${claimP95.toFixed(2)} ms`,
        },
      ],
      notes: [
        `load average at the end: ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')}`,
        'claim plan:',
        ...plan.map((row) => `  ${row['QUERY PLAN']}`),
      ],
    };
  } finally {
    await sites.close();
    await opened.close();
    await pg.close();
  }
}

await runStandalone(import.meta.url, benchHealth);
