import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { openNodePostgres } from '../../../src/db/node-clients';
import { startBenchDatabase } from '../../../test/bench/lib/bench-database';
import { runHttpLoad } from '../../../test/bench/lib/http-load';
import { spawnBenchServer } from '../../../test/bench/lib/spawn-bench-server';
import { seedBenchTools } from '../../../test/bench/search.bench';
const db = await startBenchDatabase();
const opened = await openNodePostgres(db.env.DATABASE_URL!);
await seedBenchTools(opened.db, Number(process.env.N ?? 1000));
const slugs = (await queryRows<{ slug: string }>(opened.db, sql`SELECT slug FROM sites WHERE status = 'live'`)).map((r) => r.slug);
await opened.close();
const dir = process.env.PROF_DIR ?? '/tmp/reads23/prof';
const server = await spawnBenchServer({ ...db.env, LOG_LEVEL: 'error' }, 60_000, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100']);
const auth = { authorization: `Bearer ${server.member.key}` };
const route = process.env.ROUTE ?? 'tool';
const req = () => route === 'tool' ? { path: `/api/v1/tools/${slugs[Math.floor(Math.random() * slugs.length)]}` }
  : route === 'site' ? { path: `/api/v1/sites/${server.member.siteIds[0]}`, headers: auth }
  : route === 'toolpage' ? { path: `/tools/${slugs[Math.floor(Math.random() * slugs.length)]}` }
  : route === 'home' ? { path: '/' }
  : route === 'search' ? { path: `/?q=${['writer','coder','swift painter','deep','analyst'][Math.floor(Math.random()*5)]}+${Math.random().toString(36).slice(2,4)}` }
  : route === 'searchjson' ? { path: `/api/v1/tools?q=${['writer','coder','swift painter','deep','analyst'][Math.floor(Math.random()*5)]}+${Math.random().toString(36).slice(2,4)}` }
  : { path: '/api/v1/sites?limit=20', headers: auth };
const w = await runHttpLoad({ origin: server.url, connections: 16, seconds: 3, request: req });
const r = await runHttpLoad({ origin: server.url, connections: 16, seconds: Number(process.env.SECS ?? 10), request: req });
console.log(JSON.stringify({ rps: r.reqPerSec, p50: r.p50, statuses: r.statuses, requests: r.requests + w.requests }));
await server.stop();
await db.close();
