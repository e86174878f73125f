// Benchmark: directory search latency per query kind on a generated corpus (issue 23, docs/bench.md "Directory
// search"), on PostgreSQL 15. For each directory size it loads a corpus (test/helpers/search-corpus.ts) into its own
// database, then draws fresh queries of every kind (test/helpers/search-corpus-queries.ts) in each round, the
// kinds interleaved so a noisy machine slows them alike, and prints p50/p95 per kind and surface:
//   verb       the service's search function (searchTools) on node-postgres, as the Node server runs it
//   http       GET /api/v1/tools end to end through the Node server (a child process) on the same database
//   neon-http  searchTools through drizzle neon-http and the Neon SQL-over-HTTP stand-in on loopback
//   baseline   searchTools of another commit (BENCH_SEARCH_BASELINE=<rev>), interleaved with verb: before/after
// Run: npm run bench -- search, or npx tsx test/bench/search.bench.ts
// Env: BENCH_SEARCH_SIZES   directory sizes (default 10000,100000; add 1000000 on request: its load takes minutes)
//      BENCH_SEARCH_KINDS   kinds to time, comma-separated (default all; names as printed)
//      BENCH_SEARCH_SURFACES surfaces at 100,000 tools (default verb,http,neon-http; other sizes: verb)
//      BENCH_ROUNDS         draws per kind and surface (default 200), after WARM_UP (60) untimed ones
//      BENCH_QUERY_SEED     seed of the query draws (default: random, printed), BENCH_CORPUS_SEED (default 1)
//      BENCH_DATABASE_URL   a PostgreSQL server to use (any database on it) instead of a throwaway one; its
//                           databases tooldir_search_<size>_<seed>_v<corpus version> are kept and reused by later runs
//      BENCH_SEARCH_BASELINE a git revision whose src/directory/ is timed side by side with this one (verb only)
//      BENCH_SEARCH_HTTP_CLIENT fetch: the http surface sends through fetch, not one undici Client (httpSearch)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { Client } from 'undici';
import { openNodePostgres, type OpenedDb } from '../../src/db/node-clients';
import { withRequestedKeyBackfill } from '../../src/submissions/requested-key-backfill';
import { sql } from 'drizzle-orm';
import { createNeonHttpDb, queryRows, type Db } from '../../src/db/client';
import { loadConfig } from '../../src/config';
import { buildDeps } from '../../src/build-deps';
import type { Deps } from '../../src/deps';
import { createLogger } from '../../src/log';
import { searchTools, type SearchInput, type SearchPage } from '../../src/directory/search';
import { configureNeonClient, startNeonStandIn, type NeonStandIn } from '../helpers/standins/neon-http';
import { startPostgres, findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import {
  CORPUS_VERSION,
  corpusTools,
  corpusVocabulary,
  rngFrom,
  type CorpusVocabulary,
} from '../helpers/search-corpus';
import { SEARCH_KINDS, drawSearch, type DrawnSearch, type SearchKind } from '../helpers/search-corpus-queries';
import { loadSearchCorpus } from '../helpers/search-corpus-load';
import { recordedQuality, relevanceCases } from '../helpers/search-relevance-set';
import { seedRelevanceDirectory } from '../helpers/search-relevance-seed';
import { quality, type Quality } from '../helpers/search-relevance-metrics';
import { spawnBenchServer, type SpawnedBenchServer } from './lib/spawn-bench-server';
import { spelling } from './lib/public-traffic';
import { type BenchReport, runStandalone } from './lib/results';

type Search = (input: SearchInput) => Promise<SearchPage>;
type Surface = 'verb' | 'http' | 'neon-http' | 'baseline';
/** A surface to time; `cpu` reads the CPU time (ns) its one database connection has used, when it can. */
interface Timed {
  surface: Surface;
  search: Search;
  cpu?: () => number | undefined;
}

const TARGET_MS: Record<Exclude<Surface, 'baseline'>, number> = { verb: 10, http: 12, 'neon-http': 15 };
/**
 * Untimed rounds first. A new connection's backend plans each statement of the search functions the first time it
 * runs it, and a typo or a prefix takes branches the other kinds do not: over its first 100 searches with a typo, p95
 * was 17.6 ms at 100,000 tools, against 5–6 ms afterwards. The server keeps its connections (src/db/node-clients.ts
 * SERVER_POOL_IDLE_MS), so the targets are for warm ones; what the untimed rounds cost is printed beside them.
 */
const WARM_UP = 60;
const root = resolve(import.meta.dirname, '../..');

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * Reads pages 1 to `drawn.page` through the cursor; returns the last page's time, the database CPU it cost (when
 * the surface can tell) and its size.
 */
async function timePage(timed: Timed, drawn: DrawnSearch): Promise<{ ms: number; cpuMs?: number; results: number }> {
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const input: SearchInput = { query: drawn.query, category: drawn.category, limit: drawn.limit, cursor };
    const cpu0 = timed.cpu?.();
    const t0 = performance.now();
    const answer = await timed.search(input);
    const ms = performance.now() - t0;
    const cpu1 = timed.cpu?.();
    if (page === drawn.page || !answer.next_cursor) {
      return {
        ms,
        cpuMs: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / 1e6 : undefined,
        results: answer.tools.length,
      };
    }
    cursor = answer.next_cursor;
  }
}

/**
 * The CPU time (ns) the PostgreSQL backend `pid` has run, from /proc/<pid>/schedstat: on a machine shared with
 * other work, it says what a search costs the database whatever else waits for the cores. Undefined where
 * /proc cannot be read (another machine, another user).
 */
function backendCpu(pid: number): () => number | undefined {
  return () => {
    try {
      return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return undefined;
    }
  };
}

/** searchTools on its own one-connection pool (so one backend serves it and its CPU can be read). */
async function verbSurface(
  surface: 'verb' | 'baseline',
  url: string,
  search: (deps: Deps) => Search,
  depsOn: (db: Db) => Deps,
  opened: OpenedDb[],
): Promise<Timed> {
  const db = await openNodePostgres(url, { max: 1 });
  opened.push(db);
  const [backend] = await queryRows<{ pid: number }>(db.db, sql`SELECT pg_backend_pid() AS pid`);
  return { surface, search: search(depsOn(db.db)), cpu: backendCpu(Number(backend!.pid)) };
}

/**
 * searchTools through GET /api/v1/tools on a running server (keep-alive, one client address), by default through one
 * undici Client, the client the load benches send with (lib/http-load.ts). BENCH_SEARCH_HTTP_CLIENT=fetch sends
 * through fetch instead, as this bench did until 30 Nov: fetch cost the bench's own process 1.65 ms of CPU a search
 * against 1.0 for the Client, on the two cores the server and PostgreSQL need too, and its p95 read 1.5 ms higher for
 * the same searches (docs/bench.md "Directory search", 30 Nov 05:15 UTC).
 * Every answer is computed, never the page cache's (a kept page would time a lookup, not a search; an answer from it
 * fails the run). A query drawn again is sent in another spelling (its letters' cases: lib/public-traffic.ts); the
 * pages after the first keep the first page's spelling, which their cursor belongs to. The empty query and a category
 * alone have no letters to respell: they carry the session cookie, with which the cache neither answers nor keeps a
 * page (docs/pages.md "Signed-in visitors"; the JSON search reads no session).
 */
function httpSearch(base: string): { search: Search; close: () => Promise<void> } {
  const spellings = new Map<string, { n: number; spelt: string }>();
  const spelt = (query: string, firstPage: boolean) => {
    const last = spellings.get(query);
    if (last && !firstPage) return last.spelt;
    const n = last ? last.n + 1 : 0;
    const next = { n, spelt: spelling(query, n) };
    spellings.set(query, next);
    return next.spelt;
  };
  const path = (input: SearchInput) => {
    const params = new URLSearchParams();
    if (input.query) params.set('q', spelt(input.query, !input.cursor));
    if (input.category) params.set('category', input.category);
    if (input.limit) params.set('limit', String(input.limit));
    if (input.cursor) params.set('cursor', input.cursor);
    return `/api/v1/tools?${params}`;
  };
  const headers = (input: SearchInput): Record<string, string> =>
    /\p{L}/u.test(input.query ?? '') ? {} : { cookie: 'tooldir_session=bench-no-page-cache' };
  const answer = (status: number, cache: unknown, text: string, sent: string) => {
    if (status !== 200) throw new Error(`GET ${sent}: ${status} ${text}`);
    if (cache === 'hit') throw new Error(`GET ${sent}: answered by the page cache, not computed`);
    return JSON.parse(text) as SearchPage;
  };
  if (process.env.BENCH_SEARCH_HTTP_CLIENT === 'fetch')
    return {
      search: async (input) => {
        const sent = path(input);
        const res = await fetch(`${base}${sent}`, { headers: headers(input) });
        return answer(res.status, res.headers.get('x-cache'), await res.text(), sent);
      },
      close: async () => {},
    };
  const client = new Client(base, { pipelining: 1, keepAliveTimeout: 30_000 });
  return {
    search: async (input) => {
      const sent = path(input);
      const res = await client.request({ path: sent, method: 'GET', headers: headers(input) });
      return answer(res.statusCode, res.headers['x-cache'], await res.body.text(), sent);
    },
    close: () => client.close(),
  };
}

/** Copies src/directory/ of `revision` next to this one (imports resolve alike) and loads its searchTools. */
async function baselineSearch(revision: string): Promise<{ search: (deps: Deps) => Search; remove: () => void }> {
  const dir = resolve(root, 'src/.search-baseline');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = execFileSync('git', ['ls-tree', '--name-only', `${revision}:src/directory`], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  for (const file of files)
    writeFileSync(
      resolve(dir, file),
      execFileSync('git', ['show', `${revision}:src/directory/${file}`], { cwd: root }),
    );
  const module = (await import(resolve(dir, 'search.ts'))) as { searchTools: typeof searchTools };
  return {
    search: (deps) => (input) => module.searchTools({ deps, input }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A database of `size` corpus tools on `server`: reused when an earlier run left it complete, else loaded. */
async function corpusDatabase(
  serverUrl: string,
  size: number,
  seed: number,
): Promise<{ url: string; opened: OpenedDb; loadedSeconds?: number }> {
  const name = `tooldir_search_${size}_${seed}_v${CORPUS_VERSION}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let complete = false;
  try {
    const found = await admin.query<{ description: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS description FROM pg_database WHERE datname = $1",
      [name],
    );
    complete = found.rows[0]?.description === 'corpus loaded';
    if (!complete) {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // Migrated and backfilled as the Node entry opens it, before the load: the server started on it later finds
  // no backfill request left to run over the whole corpus.
  const opened = await withRequestedKeyBackfill(await openNodePostgres(url.toString()));
  if (complete) return { url: url.toString(), opened };
  let shown = 0;
  const loaded = await loadSearchCorpus(opened.db, {
    tools: size,
    seed,
    progress: (done) => {
      if (done - shown >= 100_000 || done === size) {
        shown = done;
        process.stdout.write(`  loaded ${done} of ${size} tools\n`);
      }
    },
  });
  const marker = new pg.Client({ connectionString: serverUrl });
  await marker.connect();
  await marker.query(`COMMENT ON DATABASE ${name} IS 'corpus loaded'`);
  await marker.end();
  return { url: url.toString(), opened, loadedSeconds: loaded.seconds };
}

/**
 * The judged relevance set (test/helpers/search-relevance-set.ts) on its own database of `serverUrl`, through the verb:
 * precision at 5 and mean reciprocal rank, the measures npm test holds at or above the recorded values.
 */
async function relevance(serverUrl: string): Promise<Quality> {
  const name = 'tooldir_search_relevance';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened = await withRequestedKeyBackfill(await openNodePostgres(url.toString(), { max: 1 }));
  try {
    await seedRelevanceDirectory(opened.db);
    const deps = buildDeps(loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' }), opened.db, {
      log: createLogger('silent'),
    });
    const answers = [];
    for (const c of relevanceCases) {
      const page = await searchTools({ deps, input: { query: c.query, category: c.category, limit: 10 } });
      answers.push({ case: c, results: page.tools.map((tool) => tool.name) });
    }
    return quality(answers);
  } finally {
    await opened.close();
  }
}

interface Line {
  size: number;
  surface: Surface;
  kind: SearchKind;
  p50: number;
  p95: number;
  /** Database CPU per search, p50 and p95 (ms), where the surface can tell. */
  cpuP50?: number;
  cpuP95?: number;
  /** Mean page size over the draws (an empty answer is a real answer for some kinds). */
  results: number;
  /** The costliest draw: by database CPU where the surface can tell (wall time on a shared machine is mostly the queue). */
  worst: Worst;
}

/** One draw and what it cost: the query to replay when a kind's tail needs explaining. */
interface Worst {
  query: string;
  category?: string;
  page: number;
  ms: number;
  cpuMs?: number;
}

const describeDraw = (w: Worst) =>
  `"${w.query}"${w.category ? ` in ${w.category}` : ''}${w.page > 1 ? ` page ${w.page}` : ''}`;

/** Times every kind on every surface, interleaved: each round draws one search per kind and runs it on each surface. */
async function timeKinds(
  size: number,
  surfaces: Timed[],
  kinds: SearchKind[],
  rounds: number,
  querySeed: number,
  vocabulary: CorpusVocabulary,
): Promise<{ lines: Line[]; warmUp: string }> {
  const rng = rngFrom(querySeed, size);
  const warm = new Map<Surface, number[]>();
  const tool = corpusTools(vocabulary);
  const samples = new Map<string, { ms: number[]; cpuMs: number[]; results: number; worst?: Worst }>();
  for (let round = 0; round < WARM_UP + rounds; round++) {
    for (const kind of kinds) {
      const drawn = drawSearch(rng, vocabulary, tool, kind);
      // Each round starts with another surface, so none always runs first (warmer or colder caches).
      for (let i = 0; i < surfaces.length; i++) {
        const timed = surfaces[(round + i) % surfaces.length]!;
        const { ms, cpuMs, results } = await timePage(timed, drawn);
        if (round < WARM_UP) {
          (warm.get(timed.surface) ?? warm.set(timed.surface, []).get(timed.surface)!).push(ms);
          continue;
        }
        const key = `${timed.surface}\u0000${kind}`;
        const sample = samples.get(key) ?? samples.set(key, { ms: [], cpuMs: [], results: 0 }).get(key)!;
        sample.ms.push(ms);
        if (cpuMs !== undefined) sample.cpuMs.push(cpuMs);
        sample.results += results;
        const cost = cpuMs ?? ms;
        if (!sample.worst || cost > (sample.worst.cpuMs ?? sample.worst.ms)) {
          sample.worst = { query: drawn.query, category: drawn.category, page: drawn.page, ms, cpuMs };
        }
      }
    }
  }
  const warmUp = surfaces
    .map(({ surface }) => {
      const ms = (warm.get(surface) ?? []).sort((a, b) => a - b);
      return `${surface} p95 ${percentile(ms, 95).toFixed(1)} ms, max ${(ms.at(-1) ?? NaN).toFixed(1)} ms`;
    })
    .join('; ');
  const lines = surfaces.flatMap(({ surface }) =>
    kinds.map((kind) => {
      const sample = samples.get(`${surface}\u0000${kind}`)!;
      const ms = sample.ms.sort((a, b) => a - b);
      const cpu = sample.cpuMs.sort((a, b) => a - b);
      return {
        size,
        surface,
        kind,
        p50: percentile(ms, 50),
        p95: percentile(ms, 95),
        ...(cpu.length === ms.length && { cpuP50: percentile(cpu, 50), cpuP95: percentile(cpu, 95) }),
        results: sample.results / ms.length,
        worst: sample.worst!,
      };
    }),
  );
  return { lines, warmUp };
}

export async function benchSearch(): Promise<BenchReport> {
  const sizes = (list(process.env.BENCH_SEARCH_SIZES) ?? ['10000', '100000']).map(Number);
  const kinds = (list(process.env.BENCH_SEARCH_KINDS) ?? [...SEARCH_KINDS]) as SearchKind[];
  const unknownKind = kinds.find((k) => !SEARCH_KINDS.includes(k));
  if (unknownKind) throw new Error(`unknown kind "${unknownKind}"; kinds: ${SEARCH_KINDS.join(', ')}`);
  const wantedSurfaces = (list(process.env.BENCH_SEARCH_SURFACES) ?? ['verb', 'http', 'neon-http']) as Surface[];
  const rounds = Number(process.env.BENCH_ROUNDS ?? 200);
  const corpusSeed = Number(process.env.BENCH_CORPUS_SEED ?? 1);
  const querySeed = Number(process.env.BENCH_QUERY_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const baselineRevision = process.env.BENCH_SEARCH_BASELINE;
  const notes: string[] = [
    `query seed ${querySeed} (BENCH_QUERY_SEED), corpus seed ${corpusSeed}, ${rounds} draws per kind and surface after ${WARM_UP} untimed`,
  ];

  let server: PostgresServer | undefined;
  let serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    if (!findPostgresBinaries())
      throw new Error('PostgreSQL is not installed (apt-get install postgresql); the search bench needs it');
    server = await startPostgres({ database: 'tooldir_bench', settings: { shared_buffers: '256MB' } });
    serverUrl = server.connectionString;
  }
  const baseline = baselineRevision ? await baselineSearch(baselineRevision) : undefined;
  const lines: Line[] = [];
  let judged: Quality | undefined;
  try {
    judged = await relevance(serverUrl);
    for (const size of sizes) {
      const started = performance.now();
      const { url, opened, loadedSeconds } = await corpusDatabase(serverUrl, size, corpusSeed);
      notes.push(
        loadedSeconds === undefined
          ? `${size} tools: reused the loaded database`
          : `${size} tools: loaded in ${loadedSeconds.toFixed(0)} s`,
      );
      const vocabulary = corpusVocabulary(corpusSeed, size);
      const config = loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
      const depsOn = (db: Db) => buildDeps(config, db, { log: createLogger('silent') });
      // Every surface at 100,000 tools (the targets' size), the verb alone at other sizes unless surfaces are named.
      const here = size === 100_000 || process.env.BENCH_SEARCH_SURFACES ? wantedSurfaces : ['verb'];
      const pools: OpenedDb[] = [opened];
      const surfaces: Timed[] = [];
      let neon: NeonStandIn | undefined;
      let http: SpawnedBenchServer | undefined;
      let httpClient: ReturnType<typeof httpSearch> | undefined;
      try {
        if (here.includes('verb'))
          surfaces.push(
            await verbSurface('verb', url, (deps) => (input) => searchTools({ deps, input }), depsOn, pools),
          );
        if (baseline) surfaces.push(await verbSurface('baseline', url, baseline.search, depsOn, pools));
        if (here.includes('http')) {
          http = await spawnBenchServer({ DATABASE_URL: url, MAIL_TRANSPORT: 'outbox', BENCH_SEED_SITES: '0' });
          httpClient = httpSearch(http.url);
          surfaces.push({ surface: 'http', search: httpClient.search });
        }
        if (here.includes('neon-http')) {
          neon = await startNeonStandIn({ poolSize: 4 });
          configureNeonClient(neon);
          const neonDeps = depsOn(createNeonHttpDb(url, neon.fetchEndpoint));
          surfaces.push({ surface: 'neon-http', search: (input) => searchTools({ deps: neonDeps, input }) });
        }
        const timedKinds = await timeKinds(size, surfaces, kinds, rounds, querySeed, vocabulary);
        lines.push(...timedKinds.lines);
        notes.push(
          `${size} tools: the ${WARM_UP} untimed rounds first (new connections, every kind): ${timedKinds.warmUp}`,
        );
      } finally {
        await httpClient?.close();
        await http?.stop();
        await neon?.close();
        for (const pool of pools) await pool.close();
      }
      notes.push(`${size} tools: timed in ${((performance.now() - started) / 1000).toFixed(0)} s (load included)`);
    }
  } finally {
    baseline?.remove();
    await server?.close();
  }

  const rows = lines.map((l) => ({
    tools: l.size,
    surface: l.surface === 'baseline' ? `baseline ${baselineRevision}` : l.surface,
    kind: l.kind,
    'p50 ms': l.p50.toFixed(1),
    'p95 ms': l.p95.toFixed(1),
    'db CPU p50 ms': l.cpuP50?.toFixed(2) ?? '',
    'db CPU p95 ms': l.cpuP95?.toFixed(2) ?? '',
    'mean results': l.results.toFixed(1),
    'worst draw ms (db CPU)': `${l.worst.ms.toFixed(1)}${l.worst.cpuMs === undefined ? '' : ` (${l.worst.cpuMs.toFixed(2)})`}`,
  }));
  // The costliest draws of the service (by its database CPU): the queries to replay when a tail needs explaining.
  for (const size of new Set(lines.map((l) => l.size))) {
    const worst = lines
      .filter((l) => l.size === size && l.surface === 'verb')
      .sort((a, b) => (b.worst.cpuMs ?? b.worst.ms) - (a.worst.cpuMs ?? a.worst.ms))
      .slice(0, 5);
    if (worst.length) {
      notes.push(
        `${size} tools, costliest draws (verb): ${worst.map((l) => `${l.kind} ${describeDraw(l.worst)} ${l.worst.ms.toFixed(1)} ms (db CPU ${l.worst.cpuMs?.toFixed(2) ?? '?'})`).join('; ')}`,
      );
    }
  }
  const targets = lines
    .filter((l) => l.size === 100_000 && l.surface !== 'baseline')
    .map((l) => {
      const limit = TARGET_MS[l.surface as Exclude<Surface, 'baseline'>];
      return {
        what: `p95 ≤ ${limit} ms at 100,000 tools, ${l.surface}, ${l.kind}`,
        ok: l.p95 <= limit,
        detail: `${l.p95.toFixed(1)} ms`,
      };
    });
  if (judged) {
    notes.push(
      `relevance set: precision at 5 ${judged.precisionAt5.toFixed(4)}, mean reciprocal rank ${judged.meanReciprocalRank.toFixed(4)} over ${judged.queries} judged queries ` +
        `(recorded ${recordedQuality.precisionAt5}, ${recordedQuality.meanReciprocalRank}; ${judged.misses.length} below 1 on either)`,
    );
    targets.push(
      {
        what: `relevance set: precision at 5 ≥ recorded ${recordedQuality.precisionAt5}`,
        ok: judged.precisionAt5 >= recordedQuality.precisionAt5 - 1e-9,
        detail: judged.precisionAt5.toFixed(4),
      },
      {
        what: `relevance set: mean reciprocal rank ≥ recorded ${recordedQuality.meanReciprocalRank}`,
        ok: judged.meanReciprocalRank >= recordedQuality.meanReciprocalRank - 1e-9,
        detail: judged.meanReciprocalRank.toFixed(4),
      },
    );
  }
  return { name: 'search', rows, targets, notes, data: { lines, relevance: judged } };
}

await runStandalone(import.meta.url, benchSearch);
