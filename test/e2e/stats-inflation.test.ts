// Statistics one client cannot move (docs/stats.md "A few per client and day"), on the real Node server over
// sockets (npm start's entry, in-process): the inflation script of issue 27, one client with a browser's user agent
// sending 80 requests each to /go/{slug}, the badge and the tool page and 100 to `/`, then the roll-up job. Every
// counter ends at its per-client bound; /go and the badge answer 429 past their limit. Run on both engines: the
// embedded database (PGlite) and Upstash Redis (the REST stand-in over a real redis-server, the rate limiter too).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../functions/node';
import { createUpstashLimiter } from '../../src/adapters/ratelimit/upstash';
import { createLogger } from '../../src/log';
import { DAILY_BOUND } from '../../src/stats/per-client-bounds';
import { rateLimitPolicies } from '../../src/rate-limits/policies';
import { seedOwnedTool } from '../helpers/owned-tools';
import { findRedisServer, type RedisServer, startRedis } from '../helpers/services/redis';
import { requireService } from '../helpers/services/require-service';
import { startUpstashStandIn, type UpstashStandIn } from '../helpers/standins/upstash-rest';
import { BROWSER_UA } from '../helpers/stats-harness';
import { createAccountWithKey } from './cli/local-server';

const adminToken = 'stats-inflation-admin-token-0123456789';
const today = () => new Date().toISOString().slice(0, 10);
const LINK_LIMIT = rateLimitPolicies.outboundLinks.limit;
const BADGE_LIMIT = rateLimitPolicies.badges.limit;
const BOUNDS = {
  views: DAILY_BOUND.views,
  clicks: DAILY_BOUND.clicks,
  impressions: 1,
  badge_loads: DAILY_BOUND.badge_loads,
};

interface Running {
  server: NodeServer;
  close(): Promise<void>;
}

async function startServer(env: Record<string, string> = {}, overrides = {}): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tooldir-inflation-'));
  cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  const server = await startNodeServer(
    { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'silent', ...env },
    { quiet: true, localSweeper: false, overrides },
  );
  return {
    server,
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One client's requests, as a browser sends them (the address is the socket's: 127.0.0.1). */
const browse = (server: NodeServer, path: string) =>
  fetch(`${server.url}${path}`, { headers: { 'user-agent': BROWSER_UA }, redirect: 'manual' });

/** The day's numbers after the roll-up job, once the counts written after the responses have all landed. */
async function rolledUp(server: NodeServer, owner: { key: string }, siteId: string) {
  const read = async () => {
    const job = await fetch(`${server.url}/api/jobs/stats-rollup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(job.status).toBe(200);
    const res = await fetch(`${server.url}/api/v1/sites/${siteId}/stats?from=${today()}&to=${today()}`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    const { date: _date, ...counts } = ((await res.json()) as { days: Record<string, number>[] }).days[0]!;
    return counts;
  };
  // The last batch lands 250 ms after its response; wait until two reads a second apart agree.
  let last = await read();
  for (let attempt = 0; attempt < 30; attempt++) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await read();
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  throw new Error('the counts never settled');
}

/** The script: 80 requests each to the link, the badge and the tool page, 100 to the home page. */
async function inflate(server: NodeServer, slug: string) {
  const statuses = async (path: string, times: number) => {
    const seen: Record<number, number> = {};
    let retryAfter: string | null = null;
    for (let i = 0; i < times; i++) {
      const res = await browse(server, path);
      await res.arrayBuffer();
      seen[res.status] = (seen[res.status] ?? 0) + 1;
      if (res.status === 429) retryAfter ??= res.headers.get('retry-after');
    }
    return { seen, retryAfter };
  };
  return {
    go: await statuses(`/go/${slug}`, 80),
    badge: await statuses(`/badge/${slug}.svg`, 80),
    page: await statuses(`/tools/${slug}`, 80),
    home: await statuses('/', 100),
  };
}

/**
 * `limiter`: the in-memory limiter's window is exact; @upstash/ratelimit's sliding window weighs the previous fixed
 * window by the time elapsed, an approximation that lets a burst across a window's edge through by a request or two.
 */
function expectBounded(
  run: Awaited<ReturnType<typeof inflate>>,
  counts: Record<string, number>,
  limiter: 'exact' | 'sliding',
) {
  const refusedPast = (seen: Record<number, number>, ok: number, limit: number) => {
    expect(seen[ok]! + seen[429]!).toBe(80);
    if (limiter === 'exact') expect(seen[ok]).toBe(limit);
    else expect(seen[ok]).toBeGreaterThanOrEqual(limit);
    expect(seen[ok]).toBeLessThanOrEqual(limit + 2);
  };
  refusedPast(run.go.seen, 302, LINK_LIMIT);
  refusedPast(run.badge.seen, 200, BADGE_LIMIT);
  expect(Number(run.go.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(run.badge.retryAfter)).toBeGreaterThanOrEqual(1);
  // The pages are answered from the page cache after their first render (a hit is never refused).
  expect(run.page.seen).toEqual({ 200: 80 });
  expect(run.home.seen).toEqual({ 200: 100 });
  // Today, before this fix: views 101, clicks 122, badge loads 80, impressions 99.
  expect(counts).toEqual(BOUNDS);
}

describe('the inflation script on the real server, database engine (PGlite)', { timeout: 180_000 }, () => {
  let running: Running;
  beforeAll(async () => {
    running = await startServer();
  });
  afterAll(() => running?.close());

  it('ends with every counter at its per-client bound', async () => {
    const { server } = running;
    const owner = await createAccountWithKey(server.url, adminToken, 'member');
    const tool = await seedOwnedTool(server.deps.db, owner.accountId, {
      name: `Inflated ${crypto.randomUUID().slice(0, 6)}`,
    });
    const run = await inflate(server, tool.slug);
    expectBounded(run, await rolledUp(server, owner, tool.id), 'exact');
  });

  it('junk parameters neither create page-cache entries nor evict real pages, and count as the page they ask for', async () => {
    const { server } = running;
    const owner = await createAccountWithKey(server.url, adminToken, 'member');
    const tool = await seedOwnedTool(server.deps.db, owner.accountId, {
      name: `Junk Target ${crypto.randomUUID().slice(0, 6)}`,
    });
    const first = await browse(server, `/tools/${tool.slug}?junk=0`);
    expect(first.headers.get('x-cache')).toBe('miss'); // rendered once, and kept under the page's own key
    for (let n = 1; n <= 200; n++) {
      const res = await browse(server, `/tools/${tool.slug}?junk=${n}&utm_source=${n}`);
      await res.arrayBuffer();
      expect(res.headers.get('x-cache'), `junk=${n}`).toBe('hit'); // no render, no new entry
    }
    const real = await browse(server, `/tools/${tool.slug}`);
    expect(real.headers.get('x-cache')).toBe('hit');
    expect(await rolledUp(server, owner, tool.id)).toEqual({ ...BOUNDS, clicks: 0, impressions: 0, badge_loads: 0 });
  });
});

const describeRedis = requireService('Redis', findRedisServer() !== null);

describeRedis('the inflation script on the real server, Upstash engine (REST stand-in over redis-server)', () => {
  let redis: RedisServer;
  let upstash: UpstashStandIn;
  let running: Running;
  beforeAll(async () => {
    redis = await startRedis();
    upstash = await startUpstashStandIn({ redisUrl: redis.url });
    running = await startServer(
      { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token },
      // The production limiter on the same Redis, its fail-open timeout raised from 1 s: on a loaded machine a slow
      // answer would be served, and the test would measure latency instead of the limit.
      {
        limiter: createUpstashLimiter({
          url: upstash.url,
          token: upstash.token,
          log: createLogger('silent'),
          timeoutMs: 20_000,
        }),
      },
    );
  });
  afterAll(async () => {
    await running?.close();
    await upstash?.close();
    await redis?.close();
  });

  it('ends with every counter at its per-client bound, and Redis holds no address and no key of the day', {
    timeout: 180_000,
  }, async () => {
    const { server } = running;
    expect(server.deps.stats.kind).toBe('redis');
    const owner = await createAccountWithKey(server.url, adminToken, 'member');
    const tool = await seedOwnedTool(server.deps.db, owner.accountId, {
      name: `Inflated Redis ${crypto.randomUUID().slice(0, 6)}`,
    });
    upstash.clearCommands();
    const run = await inflate(server, tool.slug);
    expectBounded(run, await rolledUp(server, owner, tool.id), 'sliding');
    // Everything the statistics sent Redis, keys and values: marks, never the client's address or the day's key.
    const counting = upstash.commands.filter((command) => command.some((arg) => arg.startsWith('tooldir:stats')));
    expect(counting.filter((command) => command[0] === 'EVAL').length).toBeGreaterThan(0);
    expect([...new Set(counting.map((command) => command[0]))].sort()).toEqual(['EVAL', 'HSCAN']); // counting, the roll-up's read
    const sent = JSON.stringify(counting);
    expect(sent).not.toContain('127.0.0.1');
    const dayKey = bytesToHex(
      hmac(sha256, utf8ToBytes(adminToken), utf8ToBytes(`tooldir-stats-visitor-marks-v1\n${today()}`)),
    );
    expect(sent).not.toContain(dayKey);
    expect(sent).not.toContain(dayKey.slice(0, 24));
  });
});
