// API throughput against the floor: autocannon against the Node server on real PostgreSQL, each real
// endpoint side by side with a floor route running the same single query without auth, limits or
// validation. Targets: ratio ≥ 0.7 for reads, ≥ 0.5 for the submit 402 path.
import autocannon from 'autocannon';
import { type BenchReport, runStandalone } from './lib/results';
import { startBenchDatabase } from './lib/bench-database';
import { distinctSubmit } from './lib/seed';
import { spawnBenchServer } from './lib/spawn-bench-server';
import { type CpuSample, startCpuCount } from './lib/process-cpu';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
// Real and floor alternate in short rounds so a noisy machine (other processes) hits both alike.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

interface Measured {
  /** µs of CPU per request in the server, PostgreSQL and the load generator (Linux only). */
  cpu?: CpuSample;
  reqPerSec: number;
  p50: number;
  p99: number;
  total: number;
  statuses: Record<string, number>;
  errors: number;
}

let countCpu: () => (requests: number) => CpuSample | undefined = () => () => undefined;

async function load(url: string, init: { method?: string; headers?: Record<string, string>; submitTag?: string }): Promise<Measured> {
  const tag = init.submitTag;
  const cpuSince = countCpu();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: Math.max(1, Math.round(DURATION_S / ROUNDS)),
    timeout: 10,
    requests: [
      {
        method: init.method ?? 'GET',
        headers: { ...init.headers, ...(tag && { 'content-type': 'application/json' }) },
        // Every submit gets a URL and name no request used before, so each one takes the 402 path.
        ...(tag && { setupRequest: (request) => ({ ...request, body: JSON.stringify(distinctSubmit(tag)) }) }),
      },
    ],
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, Number(s.count)]));
  return { cpu: cpuSince(result.requests.total), reqPerSec: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, statuses, errors: result.errors };
}

/** Sums the rounds: req/s over the whole time, latency percentiles as the median of the rounds'. */
function combine(runs: Measured[]): Measured {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [code, n] of Object.entries(run.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const cpus = runs.map((r) => r.cpu).filter((c): c is CpuSample => c !== undefined);
  const cpuMedian = (key: keyof CpuSample) => median(cpus.map((c) => c[key]));
  return {
    cpu: cpus.length ? { server: cpuMedian('server'), postgres: cpuMedian('postgres'), loadGenerator: cpuMedian('loadGenerator') } : undefined,
    reqPerSec: runs.reduce((sum, r) => sum + r.reqPerSec, 0) / runs.length,
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    total: runs.reduce((sum, r) => sum + r.total, 0),
    statuses,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

const TARGETS = { read: 0.7, submit: 0.5 };

/** Runs the three pairs and reports req/s, p50, p99 and the ratio to the floor. */
export async function benchThroughput(): Promise<BenchReport> {
  const db = await startBenchDatabase();
  const server = await spawnBenchServer({ ...db.env, LOG_LEVEL: 'error' }).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  countCpu = () => startCpuCount(server.child.pid!, db.server?.port);
  try {
    const auth = { authorization: `Bearer ${server.member.key}` };
    const payer = { authorization: `Bearer ${server.payer.key}` };
    const siteId = server.member.siteIds[0]!;
    const pairs = [
      { op: `GET /api/v1/sites/{id}`, kind: 'read' as const, real: () => load(`${server.url}/api/v1/sites/${siteId}`, { headers: auth }), floor: () => load(`${server.url}/bench/floor/sites/${siteId}`, {}) },
      { op: 'GET /api/v1/sites?limit=20', kind: 'read' as const, real: () => load(`${server.url}/api/v1/sites?limit=20`, { headers: auth }), floor: () => load(`${server.url}/bench/floor/sites`, {}) },
      { op: 'POST /api/v1/submit-site (402)', kind: 'submit' as const, real: () => load(`${server.url}/api/v1/submit-site`, { method: 'POST', headers: payer, submitTag: 'real' }), floor: () => load(`${server.url}/bench/floor/submit`, { method: 'POST', submitTag: 'floor' }) },
    ];
    // Warm-up: JIT, key cache, connection pool.
    await load(`${server.url}/api/v1/sites/${siteId}`, { headers: auth });
    const rows: BenchReport['rows'] = [];
    const targets: BenchReport['targets'] = [];
    const data: Record<string, unknown> = {};
    for (const pair of pairs) {
      const floors: Measured[] = [];
      const reals: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        floors.push(await pair.floor());
        reals.push(await pair.real());
      }
      const floor = combine(floors);
      const real = combine(reals);
      const ratio = real.reqPerSec / floor.reqPerSec;
      const expected = pair.kind === 'read' ? 200 : 402;
      const unexpected = Object.entries(real.statuses).filter(([code]) => Number(code) !== expected);
      rows.push({
        operation: pair.op,
        'req/s': Math.round(real.reqPerSec),
        'p50 ms': real.p50,
        'p99 ms': real.p99,
        'floor req/s': Math.round(floor.reqPerSec),
        'floor p50 ms': floor.p50,
        'floor p99 ms': floor.p99,
        ratio: Math.round(ratio * 100) / 100,
        'CPU µs/req server·pg·load (floor)': real.cpu && floor.cpu
          ? `${real.cpu.server}·${real.cpu.postgres}·${real.cpu.loadGenerator} (${floor.cpu.server}·${floor.cpu.postgres}·${floor.cpu.loadGenerator})`
          : 'n/a',
      });
      targets.push({ what: `${pair.op} ratio ≥ ${TARGETS[pair.kind]}`, ok: ratio >= TARGETS[pair.kind], detail: ratio.toFixed(2) });
      targets.push({
        what: `${pair.op} answers only ${expected}`,
        ok: unexpected.length === 0 && real.errors === 0,
        detail: `statuses ${JSON.stringify(real.statuses)}, socket errors ${real.errors}`,
      });
      data[pair.op] = { real, floor, ratio };
    }
    return {
      name: 'throughput',
      rows,
      targets,
      notes: [
        `database: ${db.kind}${db.note ? ` (${db.note})` : ''}; node-postgres pool of 10`,
        `autocannon ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${Math.max(1, Math.round(DURATION_S / ROUNDS))} s for real and floor, server in its own process on 127.0.0.1`,
        'limiter: the in-memory limiter runs on every request but its verdict is ignored (few keys, many requests)',
        'submit: each request has a distinct URL and name (402 path, local payments); publishes are dropped',
        'CPU µs/req: CPU time of the server process, of PostgreSQL (postmaster and backends) and of the load generator per request (median of the rounds, from /proc); all share the same cores',
      ],
      data: { database: db.kind, connections: CONNECTIONS, durationSeconds: DURATION_S, pairs: data },
    };
  } finally {
    await server.stop();
    await db.close();
  }
}

await runStandalone(import.meta.url, benchThroughput);
