// Benchmark: directory search latency at 100,000 live tools (p50/p95 per query kind).
// Run: npx tsx test/bench/search.bench.ts   (PGlite in a temp dir)
//      BENCH_DATABASE_URL=postgres://... npx tsx test/bench/search.bench.ts   (a real PostgreSQL; it is migrated
//      and its sites table gets 100,000 extra rows: use a throwaway database)
// Env: BENCH_TOOLS (default 100000; 0 reuses the tools already in BENCH_DATABASE_URL), BENCH_ROUNDS (default 100),
//      BENCH_DRIVER=neon-http (with BENCH_DATABASE_URL: search through drizzle neon-http and the Neon SQL-over-HTTP
//      stand-in on loopback, as production reaches Neon; the stand-in adds its own HTTP hop to every search).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openNodePostgres, openPglite, type OpenedDb } from '../../src/db/node-clients';
import { createNeonHttpDb, queryRows, type Db } from '../../src/db/client';
import { configureNeonClient, startNeonStandIn, type NeonStandIn } from '../helpers/standins/neon-http';
import { loadConfig } from '../../src/config';
import { buildDeps } from '../../src/deps';
import { createLogger } from '../../src/log';
import { searchTools, type SearchPage } from '../../src/directory/search';

const adjectives = ['swift', 'clever', 'bright', 'quiet', 'bold', 'lucid', 'nimble', 'vivid', 'steady', 'sharp', 'calm', 'brisk', 'keen', 'agile', 'smart', 'deep', 'open', 'prime', 'true', 'rapid'];
const nouns = ['writer', 'painter', 'coder', 'scribe', 'tutor', 'analyst', 'planner', 'editor', 'designer', 'composer', 'translator', 'recruiter', 'marketer', 'researcher', 'assistant', 'summarizer', 'transcriber', 'narrator', 'sketcher', 'debugger', 'notetaker', 'chatbot', 'copilot', 'scheduler', 'forecaster', 'tagger', 'captioner', 'dubber', 'detector', 'optimizer'];
const suffixes = ['AI', 'Pro', 'Studio', 'Labs', 'Hub', 'GPT', 'Flow', 'Bot', 'Kit', 'Works'];
const tasks = ['blog posts', 'product photos', 'python code', 'meeting notes', 'sales emails', 'legal contracts', 'podcast audio', 'marketing copy', 'spreadsheets', 'slide decks', 'job descriptions', 'research papers', 'social posts', 'support tickets', 'video subtitles'];
// The category of each noun (the kind of tool) and of each task (what it works on), from the starter set
// (drizzle/0023_categories_starter_set.sql): a tool is in one or two categories.
const nounCategories = ['writing', 'image', 'code', 'writing', 'education', 'data', 'productivity', 'writing', 'design', 'audio', 'writing', 'productivity', 'marketing', 'research', 'chat', 'writing', 'audio', 'audio', 'image', 'code', 'productivity', 'chat', 'code', 'productivity', 'data', 'data', 'video', 'video', 'research', 'marketing'];
const taskCategories = ['writing', 'image', 'code', 'productivity', 'marketing', 'writing', 'audio', 'marketing', 'data', 'design', 'writing', 'research', 'marketing', 'chat', 'video'];
const verbs = ['write', 'edit', 'summarize', 'translate', 'generate', 'review', 'organize', 'analyze', 'improve', 'automate'];

const textArray = (values: string[]) => sql.raw(`ARRAY[${values.map((v) => `'${v}'`).join(',')}]`);

/** Inserts `count` live tools with varied names and descriptions in one set-based statement. */
async function seed(db: Db, count: number) {
  const [owner] = await queryRows<{ id: string }>(db, sql`INSERT INTO accounts (email) VALUES (${`bench-${crypto.randomUUID()}@example.com`}) RETURNING id`);
  const batch = 20_000;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await queryRows(
      db,
      sql`WITH w AS (SELECT ${textArray(adjectives)} a, ${textArray(nouns)} n, ${textArray(suffixes)} x, ${textArray(tasks)} t, ${textArray(verbs)} v),
      g AS (SELECT i, initcap(a[1 + (i * 7) % ${adjectives.length}]) || ' ' || initcap(n[1 + (i * 13) % ${nouns.length}]) || ' ' || x[1 + (i / 7) % ${suffixes.length}] || ' ' || i AS name,
             'An AI ' || n[1 + (i * 11) % ${nouns.length}] || ' that helps you ' || v[1 + (i * 3) % ${verbs.length}] || ' ' || t[1 + (i * 7) % ${tasks.length}] || ' in minutes. ' || md5(i::text) AS description,
             ARRAY[(${textArray(nounCategories)})[1 + (i * 13) % ${nouns.length}], (${textArray(taskCategories)})[1 + (i * 7) % ${tasks.length}]] AS categories
            FROM w, generate_series(${from}::int, ${to}::int) i),
      inserted AS (
      INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, metadata, slug, live_url, published_at)
      SELECT gen_random_uuid(), ${owner!.id}, g.name, 'https://bench-' || g.i || '.example', 'https://bench-' || g.i || '.example/' || ${crypto.randomUUID()},
             lower(g.name) || ' ' || ${crypto.randomUUID()}, 'live', 'payment', 'basic',
             jsonb_build_object('title', g.name, 'description', g.description), 'bench-' || g.i || '-' || substr(md5(random()::text), 1, 6),
             'https://tooldir.example/tools/bench-' || g.i, now() - g.i * interval '1 minute'
      FROM g
      RETURNING id, split_part(slug, '-', 2)::int AS i)
      INSERT INTO site_categories (site_id, category_slug)
      SELECT DISTINCT inserted.id, c.slug FROM inserted JOIN g ON g.i = inserted.i CROSS JOIN LATERAL unnest(g.categories) AS c(slug)`,
    );
  }
  // What autovacuum does soon after a bulk insert (drizzle/0025 sets sites to vacuum after 1% of its rows change):
  // it sets the visibility map that lets the listing index answer without reading the table.
  await queryRows(db, sql`VACUUM (ANALYZE) sites, site_categories, search_words`);
  // Write the bulk load's dirty pages out now, not in a checkpoint during the timed rounds (a superuser command:
  // where it is refused, the rounds may meet that checkpoint).
  await queryRows(db, sql`CHECKPOINT`).catch(() => undefined);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export interface BenchLine {
  kind: string;
  p50: number;
  p95: number;
  results: number;
}

export { seed as seedBenchTools };

/** Runs the benchmark and returns one line per query kind (milliseconds). */
export async function runSearchBench(
  options: { tools?: number; rounds?: number; databaseUrl?: string; driver?: 'node-postgres' | 'neon-http' } = {},
): Promise<BenchLine[]> {
  const tools = options.tools ?? 100_000;
  const rounds = options.rounds ?? 100;
  const dir = options.databaseUrl ? undefined : mkdtempSync(join(tmpdir(), 'tooldir-bench-'));
  let neon: NeonStandIn | undefined;
  const opened: OpenedDb = options.databaseUrl ? await openNodePostgres(options.databaseUrl) : await openPglite(join(dir!, 'pglite'));
  try {
    const started = performance.now();
    if (tools > 0) await seed(opened.db, tools);
    let searchDb = opened.db;
    if (options.driver === 'neon-http' && options.databaseUrl) {
      neon = await startNeonStandIn({ poolSize: 4 });
      configureNeonClient(neon);
      searchDb = createNeonHttpDb(options.databaseUrl, neon.fetchEndpoint);
    }
    const deps = buildDeps(loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' }), searchDb, { log: createLogger('silent') });
    const driver = options.driver === 'neon-http' ? ', searched through neon-http and the Neon stand-in' : '';
    console.log(`seeded ${tools} live tools in ${((performance.now() - started) / 1000).toFixed(1)} s (${options.databaseUrl ? 'PostgreSQL' : 'PGlite'}${driver})`);

    let second: SearchPage | undefined;
    const kinds: Array<[string, () => Promise<SearchPage>]> = [
      ['one word ("writer")', () => searchTools({ deps, input: { query: 'writer' } })],
      ['two words ("summarize meeting")', () => searchTools({ deps, input: { query: 'summarize meeting' } })],
      ['prefix ("transcr")', () => searchTools({ deps, input: { query: 'transcr' } })],
      ['typo in a name ("swift wrtier")', () => searchTools({ deps, input: { query: 'swift wrtier' } })],
      ['typo, one word ("transcriber" as "trnascriber")', () => searchTools({ deps, input: { query: 'trnascriber' } })],
      ['no match ("zzqxv")', () => searchTools({ deps, input: { query: 'zzqxv' } })],
      ['newest (empty query)', () => searchTools({ deps, input: {} })],
      ['page 2 of "writer"', async () => {
        second ??= await searchTools({ deps, input: { query: 'writer' } });
        return searchTools({ deps, input: { query: 'writer', cursor: second.next_cursor ?? undefined } });
      }],
      ['50 per page ("python code")', () => searchTools({ deps, input: { query: 'python code', limit: 50 } })],
      ['category ("python" in code)', () => searchTools({ deps, input: { query: 'python', category: 'code' } })],
      ['category, rare pair ("studio" in education)', () => searchTools({ deps, input: { query: 'studio', category: 'education' } })],
      ['category listing (empty, in video)', () => searchTools({ deps, input: { category: 'video' } })],
    ];
    const lines: BenchLine[] = [];
    for (const [kind, run] of kinds) {
      // Warm-up: a server's pooled connection has run each statement shape many times, so node-postgres's
      // prepared statement is past PostgreSQL's first five (custom) plans and on its cached plan
      // (src/directory/search-statements.ts explains why one plan serves every query).
      for (let i = 0; i < 6; i++) await run();
      const times: number[] = [];
      let results = 0;
      for (let i = 0; i < rounds; i++) {
        const t0 = performance.now();
        results = (await run()).tools.length;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      lines.push({ kind, p50: percentile(times, 50), p95: percentile(times, 95), results });
    }
    return lines;
  } finally {
    await neon?.close();
    await opened.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const lines = await runSearchBench({
    tools: Number(process.env.BENCH_TOOLS ?? 100_000),
    rounds: Number(process.env.BENCH_ROUNDS ?? 100),
    databaseUrl: process.env.BENCH_DATABASE_URL,
    driver: process.env.BENCH_DRIVER === 'neon-http' ? 'neon-http' : 'node-postgres',
  });
  console.log('\nsearch latency (searchTools verb, one statement per call)');
  console.log('query kind'.padEnd(36), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'results'.padStart(8));
  for (const l of lines) console.log(l.kind.padEnd(36), l.p50.toFixed(1).padStart(8), l.p95.toFixed(1).padStart(8), String(l.results).padStart(8));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
