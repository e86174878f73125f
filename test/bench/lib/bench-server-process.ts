// The server under load, in its own process so the load generator does not share its event loop.
// Started by throughput.ts / soak.ts: reads BENCH_* variables, starts the Node server with the floor
// routes, seeds one member account with sites, prints one line `BENCH_READY <json>` and serves until killed.
import { createMemoryLimiter } from '../../../src/adapters/ratelimit/memory';
import type { JobQueue } from '../../../src/adapters/queue/types';
import type { Actor } from '../../../src/accounts/actor';
import { startNodeServer } from '../../../functions/node';
import { countingLimiter } from './instrument';
import { floorRoutes } from './floor-routes';
import { seedAccount, seedSubmissions } from './seed';
import { ownOriginEnv } from './own-origin';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

/** What the process prints once ready. */
export interface BenchServerInfo {
  url: string;
  member: { key: string; accountId: string; siteIds: string[] };
  payer: { key: string; accountId: string };
}

let floorActor: Actor | undefined;
// Publishes are accepted and dropped: the bench measures the API, not the pipeline (and must not crawl).
const noQueue: JobQueue = { kind: 'local', enqueue: async () => {} };
const unlimited = process.env.BENCH_LIMITS !== 'real';

const server = await startNodeServer(
  {
    ...process.env,
    ...(await ownOriginEnv()),
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    STRIPE_WEBHOOK_SECRET: 'whsec_bench_0123456789',
    // The 402 path with local payments (the setup): on PostgreSQL the server is not in local mode,
    // and without this it would answer plan_unavailable instead of making a checkout link.
    LOCAL_PAYMENTS: process.env.LOCAL_PAYMENTS ?? 'true',
    MEMBER_DAILY_LIMIT: process.env.MEMBER_DAILY_LIMIT ?? '1000000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
  {
    overrides: {
      queue: noQueue,
      // Many clients share few keys: the limiter still runs on every request, its verdict is ignored.
      ...(unlimited && { limiter: countingLimiter(createMemoryLimiter(), { neverRefuse: true }) }),
    },
    app: {
      extraRoutes: floorRoutes(() => {
        if (!floorActor) throw new Error('floor actor not seeded yet');
        return floorActor;
      }),
    },
  },
);

const member = await seedAccount(server.url, BENCH_ADMIN_TOKEN, 'member');
const payer = await seedAccount(server.url, BENCH_ADMIN_TOKEN, 'none');
floorActor = { accountId: member.accountId, keyId: member.keyId, email: member.email };
const siteIds = await seedSubmissions(server.url, member.key, Number(process.env.BENCH_SEED_SITES ?? 30));
const info: BenchServerInfo = {
  url: server.url,
  member: { key: member.key, accountId: member.accountId, siteIds },
  payer: { key: payer.key, accountId: payer.accountId },
};
console.log(`BENCH_READY ${JSON.stringify(info)}`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
