// Where a request's CPU goes: the bench server under load with V8's CPU profiler, then the time per request of
// each function (self) and of each part of the request path (inclusive), over the measured seconds only.
// Not part of `npm run bench` (the profiler slows the server); the figures in docs/bench.md come from it.
//   npx tsx test/bench/profile.ts tool        GET /api/v1/tools/{slug}    (also: site, sites, page, home, search)
// Env: PROFILE_SECONDS (10), PROFILE_TOOLS (live tools seeded, 1000), PROFILE_TOP (30).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNodePostgres, openPglite } from '../../src/db/node-clients';
import { withRequestedKeyBackfill } from '../../src/submissions/requested-key-backfill';
import { startBenchDatabase } from './lib/bench-database';
import { runHttpLoad, type LoadRequest } from './lib/http-load';
import { publicTraffic } from './lib/public-traffic';
import { spawnBenchServer } from './lib/spawn-bench-server';
import { seedBenchTools } from './lib/seed-bench-tools';

interface Profile {
  nodes: Array<{ id: number; children?: number[]; callFrame: { functionName: string; url: string } }>;
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const route = process.argv[2] ?? 'tool';
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const top = Number(process.env.PROFILE_TOP ?? 30);

const db = await startBenchDatabase();
// Opened as the Node entry opens it (migrated, requested backfills run), before the seed.
const opened = await withRequestedKeyBackfill(
  db.env.DATABASE_URL ? await openNodePostgres(db.env.DATABASE_URL) : await openPglite(`${db.env.DATA_DIR}/pglite`),
);
await seedBenchTools(opened.db, Number(process.env.PROFILE_TOOLS ?? 1000));
const traffic = await publicTraffic(opened.db);
await opened.close();
const dir = mkdtempSync(join(tmpdir(), 'tooldir-profile-'));
const server = await spawnBenchServer({ ...db.env, LOG_LEVEL: 'error' }, 60_000, [
  '--cpu-prof',
  `--cpu-prof-dir=${dir}`,
  '--cpu-prof-interval=100',
]);
const auth = { authorization: `Bearer ${server.member.key}` };
const requests: Record<string, () => LoadRequest> = {
  tool: () => ({ path: `/api/v1/tools/${traffic.slug()}` }),
  site: () => ({ path: `/api/v1/sites/${server.member.siteIds[0]}`, headers: auth }),
  sites: () => ({ path: '/api/v1/sites?limit=20', headers: auth }),
  page: () => ({ path: `/tools/${traffic.slug()}` }),
  home: () => ({ path: '/' }),
  search: () => ({ path: `/?q=${encodeURIComponent(traffic.freshQuery())}` }),
};
const request = requests[route];
if (!request) throw new Error(`unknown route ${route} (known: ${Object.keys(requests).join(', ')})`);
await runHttpLoad({ origin: server.url, connections: 16, seconds: 2, request }); // warm-up
const measured = await runHttpLoad({ origin: server.url, connections: 16, seconds, request });
const stoppedAt = performance.now();
await server.stop();
await db.close();
const stopSeconds = (performance.now() - stoppedAt) / 1000;

// The main thread's profile is the largest file (tsx's loader thread writes another).
const file = readdirSync(dir)
  .map((f) => join(dir, f))
  .sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
rmSync(dir, { recursive: true, force: true });
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const name = (id: number) => {
  const { functionName, url } = byId.get(id)!.callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|functions)\//, '$1/')}`.trim();
};
// Only the measured seconds: they end where the server was stopped (the profile ends with the process).
const end = profile.endTime - stopSeconds * 1e6;
const start = end - seconds * 1e6;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at < start || at > end) return;
  const us = profile.timeDeltas[i + 1] ?? 0;
  self.set(name(id), (self.get(name(id)) ?? 0) + us);
  const seen = new Set<string>();
  for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
    const n = name(node);
    if (!seen.has(n)) inclusive.set(n, (inclusive.get(n) ?? 0) + us);
    seen.add(n);
  }
});
const perRequest = (us: number) => (us / measured.requests).toFixed(1).padStart(8);
const table = (map: Map<string, number>, keep: (n: string) => boolean) =>
  [...map]
    .filter(([n]) => keep(n))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([n, us]) => `${perRequest(us)} µs/req  ${n}`)
    .join('\n');
console.log(
  `${route}: ${measured.requests} requests in ${seconds} s (${Math.round(measured.reqPerSec)} req/s, p50 ${measured.p50} ms), profiled at 100 µs`,
);
console.log(`\nself time, top ${top}:\n${table(self, () => true)}`);
console.log(`\ninclusive time of the app's own code:\n${table(inclusive, (n) => /\b(src|functions)\//.test(n))}`);
