// Reads against the bare floor (issue 23 point 4) and the submit 402 path against its in-app floor: closed-loop
// load on the Node server on real PostgreSQL, each real endpoint side by side with a floor in alternating rounds.
// Reads: the floor is a separate bare node:http + node-postgres process running the very statement of the verb
// (lib/bare-floor-server.ts); target: the floor's median latency is ≥ 0.7 of the app's, one request at a time
// (what a request costs, without queueing); the req/s ratio under load is reported beside it. Submit: the
// floor is an in-app route running the same final statement without auth, limits or validation
// (lib/floor-routes.ts); target: throughput ratio ≥ 0.5.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import { openNodePostgres, openPglite } from '../../src/db/node-clients';
import { withRequestedKeyBackfill } from '../../src/submissions/requested-key-backfill';
import { type BenchReport, runStandalone } from './lib/results';
import { benchPoolMax, startBenchDatabase } from './lib/bench-database';
import { startBareFloor } from './lib/bare-floor';
import { type LoadRequest, runHttpLoad } from './lib/http-load';
import { distinctSubmit } from './lib/seed';
import { spawnBenchServer } from './lib/spawn-bench-server';
import { type CpuSample, startCpuCount } from './lib/process-cpu';
import { combineRounds, type Measured } from './lib/combine-rounds';
import { seedBenchTools } from './lib/seed-bench-tools';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
// Real and floor alternate in short rounds so a noisy machine (other processes) hits both alike.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** Live tools behind GET /api/v1/tools/{slug}; each request reads one of them at random. */
const LIVE_TOOLS = 1000;

const TARGETS = { read: 0.7, submit: 0.5 };

export async function benchThroughput(): Promise<BenchReport> {
  const db = await startBenchDatabase();
  // Live tools for GET /api/v1/tools/{slug}, written before the server starts (the seed is set-based SQL).
  // Opened as the Node entry opens it (migrated, requested backfills run), before the seed.
  const opened = await withRequestedKeyBackfill(
    db.env.DATABASE_URL ? await openNodePostgres(db.env.DATABASE_URL) : await openPglite(`${db.env.DATA_DIR}/pglite`),
  );
  await seedBenchTools(opened.db, LIVE_TOOLS);
  const slugs = (await queryRows<{ slug: string }>(opened.db, sql`SELECT slug FROM sites WHERE status = 'live'`)).map(
    (r) => r.slug,
  );
  await opened.close();
  const server = await spawnBenchServer({ ...db.env, LOG_LEVEL: 'error' }).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  const floor = db.env.DATABASE_URL ? await startBareFloor(db.env.DATABASE_URL, server.member.accountId) : undefined;
  const pid = (side: 'app' | 'floor') => (side === 'floor' && floor ? floor.pid : server.child.pid!);
  const load = async (
    side: 'app' | 'floor',
    request: () => LoadRequest,
    connections = CONNECTIONS,
  ): Promise<Measured> => {
    const cpuSince = startCpuCount(pid(side), db.server?.port);
    const origin = side === 'floor' && floor ? floor.url : server.url;
    const result = await runHttpLoad({ origin, connections, seconds: DURATION_S / ROUNDS, request });
    return { ...result, cpu: cpuSince(result.requests) };
  };
  try {
    const auth = { authorization: `Bearer ${server.member.key}` };
    const payer = { authorization: `Bearer ${server.payer.key}` };
    const siteId = server.member.siteIds[0]!;
    const slug = () => slugs[Math.floor(Math.random() * slugs.length)]!;
    const submit = (path: string, headers: Record<string, string>, tag: string) => (): LoadRequest => ({
      path,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      // Every submit has a URL and name no request used before, so each one takes the 402 path.
      body: JSON.stringify(distinctSubmit(tag)),
    });
    // Reads have two floors: the bare process (the target's) and, where one exists, the in-app route that calls the same
    // verb through the app's own stack (Hono, the pool, the JSON answer) without auth, limits or validation.
    const pairs = [
      {
        op: 'GET /api/v1/sites/{id}',
        kind: 'read' as const,
        real: () => ({ path: `/api/v1/sites/${siteId}`, headers: auth }),
        floor: () => ({ path: `/sites/${siteId}` }),
        inApp: (): LoadRequest => ({ path: `/bench/floor/sites/${siteId}` }),
      },
      {
        op: 'GET /api/v1/sites?limit=20',
        kind: 'read' as const,
        real: () => ({ path: '/api/v1/sites?limit=20', headers: auth }),
        floor: () => ({ path: '/sites' }),
        inApp: (): LoadRequest => ({ path: '/bench/floor/sites' }),
      },
      {
        op: 'GET /api/v1/tools/{slug}',
        kind: 'read' as const,
        real: () => ({ path: `/api/v1/tools/${slug()}` }),
        floor: () => ({ path: `/tools/${slug()}` }),
        inApp: undefined,
      },
      {
        op: 'POST /api/v1/submit-site (402)',
        kind: 'submit' as const,
        real: submit('/api/v1/submit-site', payer, 'real'),
        floor: submit('/bench/floor/submit', {}, 'floor'),
        inApp: undefined,
      },
    ];
    // Warm-up: JIT, key cache, connection pools and prepared statements on both sides.
    for (const pair of pairs) {
      await load('app', pair.real);
      if (pair.kind === 'read' && floor) await load('floor', pair.floor);
    }
    const rows: BenchReport['rows'] = [];
    const targets: BenchReport['targets'] = [];
    const data: Record<string, unknown> = {};
    for (const pair of pairs) {
      const floorSide = pair.kind === 'read' ? 'floor' : 'app'; // the submit floor is an in-app route
      if (pair.kind === 'read' && !floor) continue;
      const floors: Measured[] = [];
      const reals: Measured[] = [];
      const floorsAlone: Measured[] = [];
      const realsAlone: Measured[] = [];
      const inAppAlone: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        floors.push(await load(floorSide, pair.floor));
        reals.push(await load('app', pair.real));
        if (pair.kind !== 'read') continue;
        // One request at a time: the latency a request costs, not the queue it waits in under load.
        floorsAlone.push(await load(floorSide, pair.floor, 1));
        realsAlone.push(await load('app', pair.real, 1));
        if (pair.inApp) inAppAlone.push(await load('app', pair.inApp, 1));
      }
      const f = combineRounds(floors);
      const real = combineRounds(reals);
      const alone =
        pair.kind === 'read'
          ? {
              floor: combineRounds(floorsAlone),
              real: combineRounds(realsAlone),
              inApp: inAppAlone.length ? combineRounds(inAppAlone) : undefined,
            }
          : undefined;
      const throughputRatio = real.reqPerSec / f.reqPerSec;
      const latencyRatio = alone ? alone.floor.p50 / alone.real.p50 : f.p50 / real.p50;
      const expected = pair.kind === 'read' ? 200 : 402;
      const wrong = (m: Measured) => Object.keys(m.statuses).filter((code) => Number(code) !== expected);
      const cpu = (c?: CpuSample) => (c ? `${c.server}·${c.postgres}·${c.loadGenerator}` : 'n/a');
      rows.push({
        operation: pair.op,
        'req/s': Math.round(real.reqPerSec),
        'p50 ms': real.p50,
        'p99 ms': real.p99,
        'floor req/s': Math.round(f.reqPerSec),
        'floor p50 ms': f.p50,
        'floor p99 ms': f.p99,
        'p50 alone ms (floor)': alone ? `${alone.real.p50} (${alone.floor.p50})` : '-',
        'p50 ratio': Math.round(latencyRatio * 100) / 100,
        'in-app floor p50 alone ms (ratio)': alone?.inApp
          ? `${alone.inApp.p50} (${(alone.inApp.p50 / alone.real.p50).toFixed(2)})`
          : '-',
        'req/s ratio': Math.round(throughputRatio * 100) / 100,
        'CPU µs/req server·pg·load (floor)': `${cpu(real.cpu)} (${cpu(f.cpu)})`,
      });
      if (alone) {
        targets.push({
          what: `${pair.op}: bare floor p50 / app p50 ≥ ${TARGETS.read}, one request at a time`,
          ok: latencyRatio >= TARGETS.read,
          detail: `${alone.floor.p50} / ${alone.real.p50} ms = ${latencyRatio.toFixed(2)}`,
        });
      } else {
        targets.push({
          what: `${pair.op}: req/s ratio ≥ ${TARGETS.submit}`,
          ok: throughputRatio >= TARGETS.submit,
          detail: throughputRatio.toFixed(2),
        });
      }
      targets.push({
        what: `${pair.op} answers only ${expected} (floor too)`,
        ok: wrong(real).length === 0 && wrong(f).length === 0 && real.errors === 0 && f.errors === 0,
        detail: `statuses ${JSON.stringify(real.statuses)} (floor ${JSON.stringify(f.statuses)}), socket errors ${real.errors + f.errors}${(real.firstError ?? f.firstError) ? `: ${real.firstError ?? f.firstError}` : ''}`,
      });
      data[pair.op] = { real, floor: f, alone, latencyRatio, throughputRatio };
    }
    return {
      name: 'throughput',
      rows,
      targets,
      notes: [
        `database: ${db.kind}${db.note ? ` (${db.note})` : ''}; node-postgres pool of ${benchPoolMax()} on both sides; ${LIVE_TOOLS} live tools, each GET /api/v1/tools/{slug} reads one at random`,
        `${CONNECTIONS} closed-loop keep-alive clients (undici), ${ROUNDS} alternating rounds of ${(DURATION_S / ROUNDS).toFixed(1)} s for floor and app; every latency is measured (p50 is exact, not bucketed)`,
        "p50 alone: one client, one request at a time, the same rounds (reads); the p50 ratio of reads is taken there: under load a closed loop's median is its queue, whose shape differs between the two servers",
        "read floor: bare node:http + pg in its own process, the verb's own statement (captured once at start-up) as a prepared statement, rows sent as JSON; no routing framework, auth, limits or validation (the target's floor)",
        "in-app floor (reads): a route of the same server calling the same verb through the app's stack (Hono, the pool, c.json) without auth, limits or validation; its ratio says what the app's stack costs, the bare floor's what the whole app costs",
        'limiter: the in-memory limiter runs on every request but its verdict is ignored (one key, many requests); submit: each request has a distinct URL and name (402 path, local payments), publishes are dropped',
        'CPU µs/req: CPU time of the server (or floor) process, of PostgreSQL (postmaster and backends) and of the load generator per request (median of the rounds, from /proc); all share the same cores',
      ],
      data: { database: db.kind, connections: CONNECTIONS, durationSeconds: DURATION_S, pairs: data },
    };
  } finally {
    await floor?.stop();
    await server.stop();
    await db.close();
  }
}

await runStandalone(import.meta.url, benchThroughput);
