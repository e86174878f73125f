// Round trips on the critical path per operation, counted by instrumented adapters while one request at a
// time runs: database statements (driver level), limiter calls and Redis HTTP round trips (Upstash
// stand-in over redis-server), Stripe calls (Stripe stand-in), queue publishes (held open to prove the
// crawl publish is off the response path). Webhook rows deliver correctly signed Stripe events through the
// real route: the promotion of a paid 402 record, a redelivery of that same event, memberships, sponsorships.
import { loadConfig, type Env } from '../../src/config';
import { createStripePayments } from '../../src/adapters/payments/stripe';
import { createMemoryLimiter } from '../../src/adapters/ratelimit/memory';
import { createUpstashLimiter } from '../../src/adapters/ratelimit/upstash';
import { createLogger } from '../../src/log';
import { startNodeServer } from '../../functions/node';
import { findRedisServer, startRedis } from '../helpers/services/redis';
import { startStripeStandIn } from '../helpers/standins/stripe-api';
import { startUpstashStandIn } from '../helpers/standins/upstash-rest';
import { startBenchDatabase } from './lib/bench-database';
import { ownOriginEnv } from './lib/own-origin';
import {
  counts,
  countDatabaseStatements,
  countingLimiter,
  countingPayments,
  holdingQueue,
  resetCounts,
} from './lib/instrument';
import { type BenchReport, runStandalone } from './lib/results';
import { distinctSubmit, seedAccount } from './lib/seed';
import {
  deliverEvent,
  membershipCheckoutCompleted,
  membershipUpdated,
  paidMembershipSession,
  paidPendingEvent,
  sponsorshipUpdated,
} from './lib/webhook-events';

const ADMIN = 'bench-admin-token-0123456789abcdef';
const SAMPLES = 10;
const WEBHOOK_SECRET = 'whsec_bench_0123456789';

interface Sample {
  status: number;
  statements: number;
  /** The page cache's listing version read (one-row primary-key read), counted apart from `statements`. */
  versionReads: number;
  /** The X-Cache header: hit, miss, or - (no page cache on the route). */
  cache: string;
  limiter: number;
  redis: number;
  stripe: number;
  publishes: number;
  publishHeldAtResponse: boolean;
}

export async function benchRoundTrips(): Promise<BenchReport> {
  countDatabaseStatements();
  const db = await startBenchDatabase();
  const redis = findRedisServer() ? await startRedis() : undefined;
  const upstash = redis ? await startUpstashStandIn({ redisUrl: redis.url }) : undefined;
  const stripe = await startStripeStandIn();
  const env: Env = {
    ...db.env,
    ...(await ownOriginEnv()),
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'error',
    MEMBER_DAILY_LIMIT: '1000',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    STRIPE_PRICE_BASIC: 'price_basic',
    STRIPE_PRICE_FEATURED: 'price_featured',
    STRIPE_PRICE_SPONSORED: 'price_sponsored',
    STRIPE_PRICE_MEMBER: 'price_member',
  };
  const config = loadConfig(env);
  const log = createLogger('error');
  const queue = holdingQueue();
  const server = await startNodeServer(env, {
    localSweeper: false, // its statements and publishes would be counted against whatever request is running
    overrides: {
      log,
      queue,
      payments: countingPayments(createStripePayments(config.stripe!)),
      limiter: countingLimiter(
        upstash ? createUpstashLimiter({ url: upstash.url, token: upstash.token, log }) : createMemoryLimiter(),
      ),
    },
  });
  try {
    const member = await seedAccount(server.url, ADMIN, 'member');
    const payer = await seedAccount(server.url, ADMIN, 'none');
    // Submits are limited to 10 a minute per account: the site read below is seeded with another account's key.
    const seeder = await seedAccount(server.url, ADMIN, 'member');
    // Payers for the webhook rows (submits are limited to 10 a minute per account) and a membership account.
    const hookPayer = await seedAccount(server.url, ADMIN, 'none');
    const sponsorPayer = await seedAccount(server.url, ADMIN, 'none');
    const joiner = await seedAccount(server.url, ADMIN, 'none');
    const measure = async (send: () => Promise<Response>): Promise<Sample> => {
      resetCounts();
      stripe.clearRequests();
      upstash?.clearCommands();
      const redisBefore = upstash?.requestCount ?? 0;
      const res = await send();
      await res.arrayBuffer();
      const sample = {
        status: res.status,
        statements: counts.statements,
        versionReads: counts.versionReads,
        cache: res.headers.get('x-cache') ?? '-',
        limiter: counts.limiter,
        redis: (upstash?.requestCount ?? 0) - redisBefore,
        stripe: stripe.requests.length,
        publishes: counts.publishes,
        publishHeldAtResponse: queue.held > 0,
      };
      queue.release();
      return sample;
    };
    const request = (path: string, key: string, body?: unknown) =>
      measure(() =>
        fetch(`${server.url}${path}`, {
          method: body ? 'POST' : 'GET',
          headers: {
            authorization: `Bearer ${key}`,
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    const deliver = (body: string) => measure(() => deliverEvent(server.url, body, WEBHOOK_SECRET));
    const firstSite = await request('/api/v1/submit-site', seeder.key, distinctSubmit('rt'));
    const siteId = (
      (await (
        await fetch(`${server.url}/api/v1/sites?limit=1`, { headers: { authorization: `Bearer ${seeder.key}` } })
      ).json()) as { sites: Array<{ site_id: string }> }
    ).sites[0]?.site_id;
    if (firstSite.status !== 201 || !siteId) throw new Error(`seed site failed: ${firstSite.status}`);
    // Warm: key cache, Lua script cache, last_used_at touch (once a minute per key, deferred).
    await request(`/api/v1/sites/${siteId}`, seeder.key);
    await request('/api/v1/sites?limit=1', member.key);
    await request('/api/v1/sites?limit=1', payer.key);
    // A sponsored listing (paid through its subscription) for the sponsorship row.
    const sponsored = await paidPendingEvent(server.url, sponsorPayer.key, stripe, 'sponsored');
    if ((await deliver(sponsored.body)).status !== 200 || !sponsored.subscriptionId)
      throw new Error('seed sponsored site failed');
    // A membership checkout of ours, paid: its completion is redelivered with fresh event ids.
    const membership = await paidMembershipSession(server.url, joiner.key, stripe);
    // Event clocks move forward per delivery so each one is applied (newer wins), not skipped as stale.
    let clock = Math.floor(Date.now() / 1000);
    let asked = 0;
    await request('/', member.key); // the home page row reads it from the cache
    const promotedBodies: string[] = [];
    let redelivered = 0;

    const operations = [
      {
        op: 'GET /api/v1/sites/{id}',
        run: () => request(`/api/v1/sites/${siteId}`, seeder.key),
        target: { statements: 1, limiter: 1, stripe: 0 },
      },
      {
        op: 'GET /api/v1/sites?limit=20',
        run: () => request('/api/v1/sites?limit=20', member.key),
        target: { statements: 1, limiter: 1, stripe: 0 },
      },
      // Directory search: a text query, and a typo whose fallback runs inside the same statement. Each sample asks a
      // search not asked before (a page cache miss); the hit rows ask one already answered (docs/pages.md "Caching").
      {
        op: 'GET /api/v1/tools?q=rt (cache miss)',
        run: () => request(`/api/v1/tools?q=rt+${++asked}`, member.key),
        target: { statements: 1, limiter: 1, stripe: 0 },
      },
      {
        op: 'GET /api/v1/tools?q=qeued (typo, cache miss)',
        run: () => request(`/api/v1/tools?q=qeued+${++asked}`, member.key),
        target: { statements: 1, limiter: 1, stripe: 0 },
      },
      {
        op: 'GET /api/v1/tools?q=rt (cache hit)',
        run: () => request('/api/v1/tools?q=rt+1', member.key),
        target: { statements: 0, limiter: 0, stripe: 0 },
      },
      {
        op: 'GET /?q=rt (search page, cache miss)',
        run: () => request(`/?q=rt+${++asked}`, member.key),
        target: { statements: 1, limiter: 1, stripe: 0 },
      },
      {
        op: 'GET / (home page, cache hit)',
        run: () => request('/', member.key),
        target: { statements: 0, limiter: 0, stripe: 0 },
      },
      {
        op: 'POST submit-site → 201 queued',
        run: () => request('/api/v1/submit-site', member.key, distinctSubmit('rt')),
        target: { statements: 2, limiter: 1, stripe: 0 },
      },
      {
        op: 'POST submit-site → 402',
        run: () => request('/api/v1/submit-site', payer.key, distinctSubmit('rt')),
        target: { statements: 2, limiter: 1, stripe: 1 },
      },
      {
        op: 'webhook: checkout completed → promoted',
        run: async () => {
          // Not counted: the 402 submit and the stand-in marking its session paid happen before measure().
          const paid = await paidPendingEvent(server.url, hookPayer.key, stripe);
          promotedBodies.push(paid.body);
          return deliver(paid.body);
        },
        target: { statements: 2, limiter: 0, stripe: 0 },
      },
      {
        op: 'webhook: same event redelivered',
        run: () => deliver(promotedBodies[redelivered++]!),
        target: { statements: 1, limiter: 0, stripe: 0 },
      },
      {
        op: 'webhook: membership checkout completed',
        run: () => deliver(membershipCheckoutCompleted(membership.session)),
      },
      {
        op: 'webhook: membership subscription updated',
        run: () => deliver(membershipUpdated(membership.subscriptionId, membership.customer, ++clock)),
      },
      {
        op: 'webhook: sponsorship subscription updated',
        run: () => deliver(sponsorshipUpdated(sponsored.subscriptionId!, ++clock)),
      },
    ] as Array<{
      op: string;
      run: () => Promise<Sample>;
      target?: { statements: number; limiter: number; stripe: number };
    }>;
    const rows: BenchReport['rows'] = [];
    const targets: BenchReport['targets'] = [];
    const data: Record<string, Sample[]> = {};
    for (const operation of operations) {
      const samples: Sample[] = [];
      for (let i = 0; i < SAMPLES; i++) samples.push(await operation.run());
      data[operation.op] = samples;
      const max = (pick: (s: Sample) => number) => Math.max(...samples.map(pick));
      const statuses = [...new Set(samples.map((s) => s.status))].join(',');
      const publishes = max((s) => s.publishes);
      rows.push({
        operation: operation.op,
        status: statuses,
        'db statements': max((s) => s.statements),
        'listing version reads': max((s) => s.versionReads),
        'page cache': [...new Set(samples.map((s) => s.cache))].join(','),
        'limiter calls': max((s) => s.limiter),
        'redis round trips': upstash ? max((s) => s.redis) : 'n/a',
        'stripe calls': max((s) => s.stripe),
        'queue publishes': publishes,
        'publish awaited?':
          publishes === 0 ? '-' : samples.some((s) => s.publishes > 0 && !s.publishHeldAtResponse) ? 'yes' : 'no',
      });
      const t = operation.target;
      if (!t) continue;
      // A row named for a cache hit or miss must have been one, every sample.
      const cacheState = /cache (hit|miss)\)$/.exec(operation.op)?.[1];
      const ok =
        samples.every(
          (s) => (s.status < 300 || s.status === 402) && (cacheState === undefined || s.cache === cacheState),
        ) &&
        max((s) => s.statements) <= t.statements &&
        max((s) => s.limiter) <= t.limiter &&
        max((s) => s.stripe) <= t.stripe;
      targets.push({
        what: `${operation.op}: ≤ ${t.statements} statements, ${t.limiter} limiter call, ${t.stripe} Stripe calls`,
        ok,
        detail: `statuses ${statuses}; max over ${SAMPLES}: ${max((s) => s.statements)} statements, ${max((s) => s.limiter)} limiter, ${max((s) => s.stripe)} Stripe`,
      });
    }
    const queued = data['POST submit-site → 201 queued'] ?? [];
    targets.push({
      what: 'crawl publish off the response path',
      ok: queued.every((s) => s.publishes === 1 && s.publishHeldAtResponse),
      detail: 'the response arrived while its publish was still held open by the queue',
    });
    const promoted = data['webhook: checkout completed → promoted'] ?? [];
    const redeliveries = data['webhook: same event redelivered'] ?? [];
    targets.push({
      what: 'webhook promotion ≤ 2 statements, crawl publish off the response path',
      ok:
        promoted.length === SAMPLES &&
        promoted.every((s) => s.status === 200 && s.statements <= 2 && s.publishes === 1 && s.publishHeldAtResponse),
      detail: `max over ${SAMPLES}: ${Math.max(...promoted.map((s) => s.statements))} statements; each 200 arrived with its one crawl publish still held open`,
    });
    targets.push({
      what: 'duplicate delivery changes nothing: no publish, no Stripe call',
      ok: redeliveries.every((s) => s.status === 200 && s.publishes === 0 && s.stripe === 0),
      detail: `max over ${SAMPLES}: ${Math.max(...redeliveries.map((s) => s.statements))} statement(s)`,
    });
    return {
      name: 'round-trips',
      rows,
      targets,
      notes: [
        `database: ${db.kind}${db.note ? ` (${db.note})` : ''}; statements counted at the driver (pg.Pool#query)`,
        upstash
          ? 'limiter: @upstash/ratelimit through the Upstash REST stand-in over redis-server'
          : 'redis-server missing: in-memory limiter, no Redis round trips counted',
        'Stripe: the real stripe-node client against the Stripe stand-in; reads: the limiter answers before the query runs',
        'webhooks: correctly signed events POSTed to /api/webhooks/stripe; the 402 submit and the stand-in marking its session paid are set-up, not counted',
      ],
      data,
    };
  } finally {
    await server.close();
    await stripe.close();
    await upstash?.close();
    await redis?.close();
    await db.close();
  }
}

await runStandalone(import.meta.url, benchRoundTrips);
