// Listing statistics on the production engine (docs/stats.md "Engines"): buildDeps picks Upstash Redis counters
// from UPSTASH_REDIS_REST_* alone; its REST client (HINCRBY, EXPIRE, HSCAN over Upstash's REST API) against the REST stand-in over redis-server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/log';
import { createUpstashStatsStore, dayKey, REDIS_RETENTION_SECONDS } from '../../src/adapters/stats/upstash';
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

  it('counts after the response in pipelined calls (one per batch of requests), exactly, and the roll-up reads it back', async () => {
    const owner = await t.member();
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, { name: `Redis Counted ${crypto.randomUUID().slice(0, 6)}` });
    const h = statsHarness(t);
    upstash.clearCommands();
    const visits = [`/tools/${tool.slug}`, `/tools/${tool.slug}`, `/go/${tool.slug}`, `/badge/${tool.slug}.svg`];
    for (const path of visits) expect((await h.visit(path)).status).toBeLessThan(400);
    await h.settle();
    const increments = upstash.commands.filter((c) => c[0] === 'HINCRBY');
    expect(increments.reduce((sum, c) => sum + Number(c[3]), 0)).toBe(4);
    expect(increments.every((c) => c[1] === dayKey(today))).toBe(true);
    // One EXPIRE per pipelined call, and never more calls than requests.
    const calls = upstash.commands.filter((c) => c[0] === 'EXPIRE').length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(visits.length);
    const ttl = await (
      await fetch(upstash.url, { method: 'POST', headers: { authorization: `Bearer ${upstash.token}` }, body: JSON.stringify(['TTL', dayKey(today)]) })
    ).json() as { result: number };
    expect(ttl.result).toBeGreaterThan(REDIS_RETENTION_SECONDS - 60);

    const stats = await h.statsOf(tool.id, owner.key, `?from=${today}&to=${today}`);
    expect(stats.days).toEqual([{ date: today, ...only({ views: 2, clicks: 1, badge_loads: 1 }) }]);
  });

  it('reads a day with more fields than one HSCAN page returns', async () => {
    const owner = await t.member();
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, { name: `Redis Scan ${crypto.randomUUID().slice(0, 6)}` });
    const store = createUpstashStatsStore({ url: upstash.url, token: upstash.token });
    const day = '2026-05-01';
    const noise = Array.from({ length: 2500 }, (_, i) => ({ slug: `other-tool-${i}`, counter: 'views', n: 1 }));
    await store.record(day, [...noise, { slug: tool.slug, counter: 'clicks', n: 3 }]);
    await store.record(day, [{ slug: tool.slug, counter: 'clicks', n: 2 }]);
    expect((await store.readDay(day)).length).toBe(2501);
    expect(await rollUpStats(t.deps, { days: [day] })).toEqual({ days: [{ day, tools: 1 }] });
    const body = await (await t.request(`/api/v1/sites/${tool.id}/stats?from=${day}&to=${day}`, { key: owner.key })).json();
    expect(body.days).toEqual([{ date: day, ...only({ clicks: 5 }) }]);
  });

  it('an Upstash outage leaves pages at 200 and is logged', async () => {
    const owner = await t.member();
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, { name: `Redis Down ${crypto.randomUUID().slice(0, 6)}` });
    const h = statsHarness(t);
    upstash.setDown(true);
    try {
      expect((await h.visit(`/tools/${tool.slug}`)).status).toBe(200);
      expect((await h.visit(`/go/${tool.slug}`)).status).toBe(302);
      await h.settle();
    } finally {
      upstash.setDown(false);
    }
    const lost = lines.filter((l) => l.includes('statistics not counted') && l.includes('"engine":"redis"')).map((l) => JSON.parse(l) as { events: number });
    expect(lost.reduce((sum, l) => sum + l.events, 0)).toBe(2);
  });
});
