// Listing statistics on the production engine (docs/stats.md "Engines"): buildDeps picks Upstash Redis counters
// from UPSTASH_REDIS_REST_* alone; its REST client (the counting script by EVAL, HSCAN over Upstash's REST API)
// against the REST stand-in over redis-server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/log';
import { createUpstashStatsStore, dayKey, marksKey, REDIS_RETENTION_SECONDS } from '../../src/adapters/stats/upstash';
import { endOfDaySeconds } from '../../src/adapters/stats/upstash-count-script';
import { DAILY_BOUND } from '../../src/stats/per-client-bounds';
import { rollUpStats } from '../../src/stats/roll-up';
import { findRedisServer, type RedisServer, startRedis } from '../helpers/services/redis';
import { requireService } from '../helpers/services/require-service';
import { startUpstashStandIn, type UpstashStandIn } from '../helpers/standins/upstash-rest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { seedOwnedTool } from '../helpers/owned-tools';
import { only, statsHarness } from '../helpers/stats-harness';

const describeRedis = requireService('Redis', findRedisServer() !== null);

describeRedis('statistics on Upstash Redis (REST stand-in over redis-server)', () => {
  let redis: RedisServer;
  let upstash: UpstashStandIn;
  let t: TestApp;
  const lines: string[] = [];
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    redis = await startRedis();
    upstash = await startUpstashStandIn({ redisUrl: redis.url });
    t = await createTestApp({
      env: { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token },
      overrides: { log: createLogger('warn', (line) => lines.push(line)) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await upstash?.close();
    await redis?.close();
  });

  it('is the engine buildDeps picks from the configuration alone', () => {
    expect(t.deps.stats.kind).toBe('redis');
  });

  /** One Redis command through the REST API, as the stand-in answers it. */
  const redisCommand = async (command: unknown[]) =>
    (
      (await (
        await fetch(upstash.url, {
          method: 'POST',
          headers: { authorization: `Bearer ${upstash.token}` },
          body: JSON.stringify(command),
        })
      ).json()) as { result: unknown }
    ).result;

  it('counts after the response in one script call per batch of requests, exactly, and the roll-up reads it back', async () => {
    const owner = await t.member();
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: `Redis Counted ${crypto.randomUUID().slice(0, 6)}`,
    });
    const h = statsHarness(t);
    upstash.clearCommands();
    const visits = [`/tools/${tool.slug}`, `/tools/${tool.slug}`, `/go/${tool.slug}`, `/badge/${tool.slug}.svg`];
    for (const path of visits)
      expect((await h.visit(path, { headers: { 'cf-connecting-ip': '192.0.2.41' } })).status).toBeLessThan(400);
    await h.settle();
    // EVAL script numkeys counters marks ...: one per batch, never more calls than requests, only today's two hashes.
    const calls = upstash.commands.filter((c) => c[0] === 'EVAL');
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThanOrEqual(visits.length);
    expect(calls.every((c) => c[2] === '2' && c[3] === dayKey(today) && c[4] === marksKey(today))).toBe(true);
    expect(upstash.commands.filter((c) => c[0] !== 'EVAL' && c.some((arg) => arg.startsWith('tooldir:stats')))).toEqual(
      [],
    );
    expect(await redisCommand(['TTL', dayKey(today)])).toBeGreaterThan(REDIS_RETENTION_SECONDS - 60);
    // The marks expire at the end of their day.
    const markTtl = (await redisCommand(['TTL', marksKey(today)])) as number;
    expect(markTtl).toBeGreaterThan(0);
    expect(markTtl).toBeLessThanOrEqual(endOfDaySeconds(today) - Math.floor(Date.now() / 1000));

    const stats = await h.statsOf(tool.id, owner.key, `?from=${today}&to=${today}`);
    expect(stats.days).toEqual([{ date: today, ...only({ views: 2, clicks: 1, badge_loads: 1 }) }]);
  });

  it('counts one client at most its bound, also when two processes write at once; the marks hold no address', async () => {
    const owner = await t.member();
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: `Redis Bounded ${crypto.randomUUID().slice(0, 6)}`,
    });
    // A second process on the same Redis and database (its own store and batch), like a second isolate.
    const other = await createTestApp({
      db: { db: t.deps.db, close: async () => {} },
      env: { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token },
    });
    try {
      const [h1, h2] = [statsHarness(t), statsHarness(other)];
      const client = { 'cf-connecting-ip': '2001:db8:77:1::9' };
      const loads = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          (i % 2 ? h1 : h2).visit(i % 3 ? `/tools/${tool.slug}` : `/go/${tool.slug}`, { headers: client }),
        ),
      );
      expect(loads.map((r) => r.status).sort()).toEqual([...Array(16).fill(200), ...Array(8).fill(302)].sort());
      await Promise.all([h1.settle(), h2.settle()]);
      const stats = await h1.statsOf(tool.id, owner.key, `?from=${today}&to=${today}`);
      expect(stats.days).toEqual([{ date: today, ...only({ views: DAILY_BOUND.views, clicks: DAILY_BOUND.clicks }) }]);
      const marks = (await redisCommand(['HGETALL', marksKey(today)])) as string[];
      const fields = marks.filter((_, i) => i % 2 === 0);
      expect(fields.length).toBeGreaterThan(0);
      expect(fields.every((f) => /^[0-9a-f]{24}$/.test(f))).toBe(true);
      expect(JSON.stringify(marks)).not.toContain('2001:db8:77');
    } finally {
      await other.close();
    }
  });

  it('reads a day with more fields than one HSCAN page returns', async () => {
    const owner = await t.member();
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: `Redis Scan ${crypto.randomUUID().slice(0, 6)}`,
    });
    const store = createUpstashStatsStore({ url: upstash.url, token: upstash.token });
    const day = '2026-05-01';
    // Gates with room for everything: this test is about reading back, not about bounds.
    const open = (i: number) => [{ mark: i.toString(16).padStart(24, '0'), cap: 1_000_000 }];
    const noise = Array.from({ length: 2500 }, (_, i) => ({
      slug: `other-tool-${i}`,
      counter: 'views',
      n: 1,
      gates: open(i),
    }));
    await store.record(day, [...noise, { slug: tool.slug, counter: 'clicks', n: 3, gates: open(9999) }]);
    await store.record(day, [{ slug: tool.slug, counter: 'clicks', n: 2, gates: open(9999) }]);
    expect((await store.readDay(day)).length).toBe(2501);
    expect(await rollUpStats(t.deps, { days: [day] })).toEqual({ days: [{ day, tools: 1 }] });
    const body = await (
      await t.request(`/api/v1/sites/${tool.id}/stats?from=${day}&to=${day}`, { key: owner.key })
    ).json();
    expect(body.days).toEqual([{ date: day, ...only({ clicks: 5 }) }]);
  });

  it('an Upstash outage leaves pages at 200 and is logged', async () => {
    const owner = await t.member();
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: `Redis Down ${crypto.randomUUID().slice(0, 6)}`,
    });
    const h = statsHarness(t);
    upstash.setDown(true);
    try {
      expect((await h.visit(`/tools/${tool.slug}`)).status).toBe(200);
      expect((await h.visit(`/go/${tool.slug}`)).status).toBe(302);
      await h.settle();
    } finally {
      upstash.setDown(false);
    }
    const lost = lines
      .filter((l) => l.includes('statistics not counted') && l.includes('"engine":"redis"'))
      .map((l) => JSON.parse(l) as { events: number });
    expect(lost.reduce((sum, l) => sum + l.events, 0)).toBe(2);
  });
});
