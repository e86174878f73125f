// Page latency with listing statistics counted and not counted (docs/stats.md "No cost to the page"): the same
// server code on the same PostgreSQL, started three times (STATS_COUNTING=false; counting into Upstash Redis, the
// production engine, through the REST stand-in over redis-server; counting into the database's own counters),
// measured in alternating rounds with a browser's user agent so every request is handed to counting. The load
// comes from one client (127.0.0.1), so past its daily bound the engine's gates refuse its events: each batch still
// makes its one write. The cost of many clients' marks is measured apart (test/bench/stats-marks.ts).
import autocannon from 'autocannon';
import { openNodePostgres } from '../../src/db/node-clients';
import { withRequestedKeyBackfill } from '../../src/submissions/requested-key-backfill';
import { type BenchReport, runStandalone } from './lib/results';
import { startBenchDatabase } from './lib/bench-database';
import { spawnBenchServer, type SpawnedBenchServer } from './lib/spawn-bench-server';
import { findRedisServer, startRedis, type RedisServer } from '../helpers/services/redis';
import { startUpstashStandIn, type UpstashStandIn } from '../helpers/standins/upstash-rest';
import { seedTools } from '../helpers/live-tools';
import { startCpuCount, type CpuSample } from './lib/process-cpu';
import { BROWSER_UA } from '../helpers/stats-harness';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** Counting may cost the page at most this much of its median latency (it runs after the response). */
const MAX_P50_RATIO = 1.1;

interface Measured {
  /** µs of CPU per request in the server process and in PostgreSQL: what counting adds, less sensitive to a busy box. */
  cpu?: CpuSample;
  reqPerSec: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

async function load(url: string, server?: SpawnedBenchServer, postgresPort?: number): Promise<Measured> {
  const cpuSince = server ? startCpuCount(server.child.pid!, postgresPort) : () => undefined;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: Math.max(1, Math.round(DURATION_S / ROUNDS)),
    timeout: 10,
    headers: { 'user-agent': BROWSER_UA },
  });
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, s]) => [code, Number(s.count)]),
  );
  return {
    cpu: cpuSince(result.requests.total),
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
  };
}

function combine(runs: Measured[]): Measured {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const statuses: Record<string, number> = {};
  for (const run of runs)
    for (const [code, n] of Object.entries(run.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const cpus = runs.map((r) => r.cpu).filter((c): c is CpuSample => c !== undefined);
  const cpu = cpus.length
    ? {
        server: median(cpus.map((c) => c.server)),
        postgres: median(cpus.map((c) => c.postgres)),
        loadGenerator: median(cpus.map((c) => c.loadGenerator)),
      }
    : undefined;
  return {
    cpu,
    reqPerSec: runs.reduce((s, r) => s + r.reqPerSec, 0) / runs.length,
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    statuses,
  };
}

export async function benchStatsCounting(): Promise<BenchReport> {
  const db = await startBenchDatabase();
  const stops: (() => Promise<void>)[] = [() => db.close()];
  try {
    let redis: RedisServer | undefined;
    let upstash: UpstashStandIn | undefined;
    if (findRedisServer()) {
      redis = await startRedis();
      upstash = await startUpstashStandIn({ redisUrl: redis.url });
      stops.unshift(
        () => redis!.close(),
        () => upstash!.close(),
      );
    }
    const start = async (env: Record<string, string>) => {
      const server = await spawnBenchServer({ ...db.env, LOG_LEVEL: 'error', BENCH_SEED_SITES: '1', ...env });
      stops.unshift(() => server.stop());
      return server;
    };
    const servers: [string, SpawnedBenchServer][] = [['off', await start({ STATS_COUNTING: 'false' })]];
    if (upstash)
      servers.push([
        'Upstash Redis',
        await start({ UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token }),
      ]);
    servers.push(['database counters', await start({})]);

    // 30 live tools: the home page draws 24 cards (24 impressions per render).
    const opened =
      db.kind === 'postgresql'
        ? await withRequestedKeyBackfill(await openNodePostgres(db.server!.connectionString))
        : undefined;
    if (!opened) throw new Error('the statistics bench needs PostgreSQL (apt-get install postgresql)');
    const tools = await seedTools(
      opened.db,
      Array.from({ length: 30 }, (_, i) => ({ name: `Bench Counted ${i}` })),
      servers[0]![1].url,
    );
    await opened.close();
    const slug = tools[0]!.slug;
    const pages = [`/tools/${slug}`, '/', `/badge/${slug}.svg`];

    const rows: BenchReport['rows'] = [];
    const targets: BenchReport['targets'] = [];
    const data: Record<string, unknown> = {};
    for (const [, server] of servers) await load(`${server.url}/tools/${slug}`); // warm-up
    for (const path of pages) {
      const runs = new Map<string, Measured[]>(servers.map(([name]) => [name, []]));
      // The order of the servers turns each round, so none is always measured first or last on a busy machine.
      for (let round = 0; round < ROUNDS; round++) {
        const order = servers.map((_, i) => servers[(i + round) % servers.length]!);
        for (const [name, server] of order)
          runs.get(name)!.push(await load(`${server.url}${path}`, server, db.server?.port));
      }
      const off = combine(runs.get('off')!);
      for (const [name] of servers) {
        const m = combine(runs.get(name)!);
        const ratio = off.p50 > 0 ? m.p50 / off.p50 : 1;
        rows.push({
          page: `GET ${path.replace(slug, '{slug}')}`,
          counting: name,
          'req/s': Math.round(m.reqPerSec),
          'p50 ms': m.p50,
          'p99 ms': m.p99,
          'p50 / off': Math.round(ratio * 100) / 100,
          'CPU µs/req server·pg': m.cpu ? `${m.cpu.server}·${m.cpu.postgres}` : 'n/a',
          statuses: JSON.stringify(m.statuses),
        });
        if (name !== 'off')
          targets.push({
            what: `GET ${path.replace(slug, '{slug}')} p50 with ${name} ≤ ${MAX_P50_RATIO} × off`,
            ok: ratio <= MAX_P50_RATIO || m.p50 - off.p50 <= 2,
            detail: `${m.p50} vs ${off.p50} ms`,
          });
        data[`${path} ${name}`] = m;
      }
    }
    return {
      name: 'stats',
      rows,
      targets,
      notes: [
        `database: ${db.kind}; autocannon ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${Math.max(1, Math.round(DURATION_S / ROUNDS))} s per server and page, a browser user agent (every request handed to counting; one client, so past its bound the gates refuse)`,
        'three servers of the same code on the same PostgreSQL; counting writes after the response (Node: the tracked waitUntil set)',
        upstash
          ? `Upstash REST stand-in over redis-server in the bench process: ${upstash.requestCount} counting calls served`
          : 'redis-server not installed: no Upstash row',
        'a target passes when the median is within 10 % of counting off, or within 2 ms (twice the resolution of the measurement: the box is shared)',
        'CPU µs/req: CPU time of the server process and of PostgreSQL per request (median of the rounds, from /proc): the work counting adds, whatever else the machine runs',
      ],
      data,
    };
  } finally {
    for (const stop of stops) await stop().catch(() => {});
  }
}

await runStandalone(import.meta.url, benchStatsCounting);
