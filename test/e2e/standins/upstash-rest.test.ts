// Self-test of the Upstash REST stand-in: @upstash/redis and @upstash/ratelimit against a real redis-server.
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findRedisServer, type RedisServer, startRedis } from '../../helpers/services/redis';
import { requireService } from '../../helpers/services/require-service';
import { startUpstashStandIn, type UpstashStandIn } from '../../helpers/standins/upstash-rest';

const describeRedis = requireService('Redis', findRedisServer() !== null);

describeRedis('Upstash REST stand-in', () => {
  let server: RedisServer;
  let standIn: UpstashStandIn;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedis();
    standIn = await startUpstashStandIn({ redisUrl: server.url });
    redis = new Redis({ url: standIn.url, token: standIn.token, retry: false, enableAutoPipelining: false });
  });
  afterAll(async () => {
    await standIn?.close();
    await server?.close();
  });

  async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${standIn.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standIn.token}`, ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('round-trips strings, numbers, hashes and unicode through @upstash/redis (base64 by default)', async () => {
    expect(await redis.set('greeting', 'héllo ✓ OK')).toBe('OK');
    expect(await redis.get('greeting')).toBe('héllo ✓ OK');
    expect(await redis.incrby('counter', 5)).toBe(5);
    await redis.hset('h', { a: '1', b: 'two' });
    expect(await redis.hgetall('h')).toEqual({ a: 1, b: 'two' }); // the SDK parses JSON-looking values
    expect(await redis.get('missing')).toBeNull();
  });

  it('base64-encodes every string except "OK" when asked, and flattens HGETALL to a list', async () => {
    await post('/', ['HSET', 'flat', 'k', 'v']);
    expect((await post('/', ['SET', 'x', 'OK'], { 'upstash-encoding': 'base64' })).body).toEqual({ result: 'OK' });
    expect((await post('/', ['GET', 'x'], { 'upstash-encoding': 'base64' })).body).toEqual({ result: 'T0s=' });
    expect((await post('/', ['PING'], { 'upstash-encoding': 'base64' })).body).toEqual({ result: 'UE9ORw==' });
    expect((await post('/', ['HGETALL', 'flat'])).body).toEqual({ result: ['k', 'v'] });
    expect((await post('/', ['HGETALL', 'flat'], { 'upstash-encoding': 'base64' })).body).toEqual({
      result: ['aw==', 'dg=='],
    });
  });

  it('answers pipelines per command and runs multi-exec atomically', async () => {
    const pipeline = await post('/pipeline', [
      ['SET', 'p', '1'],
      ['INCR', 'p'],
      ['LPUSH', 'p', 'x'],
      ['GET', 'p'],
    ]);
    expect(pipeline).toEqual({
      status: 200,
      body: [
        { result: 'OK' },
        { result: 2 },
        { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
        { result: '2' },
      ],
    });
    const tx = redis.multi();
    tx.set('m', 'a');
    tx.append('m', 'b');
    tx.get('m');
    expect(await tx.exec()).toEqual(['OK', 2, 'ab']);
    expect((await post('/multi-exec', [['SET', 'm2', '1'], ['NOSUCHCOMMAND']])).status).toBe(400);
    expect(await redis.get('m2')).toBeNull(); // the whole transaction was discarded
  });

  it('rejects a missing or wrong token with 401', async () => {
    const response = await fetch(standIn.url, {
      method: 'POST',
      headers: { authorization: 'Bearer nope' },
      body: '["PING"]',
    });
    expect(response.status).toBe(401);
    await expect(new Redis({ url: standIn.url, token: 'nope', retry: false }).get('x')).rejects.toThrow(/Unauthorized/);
  });

  it('maps EVALSHA of the original shebang script to the patched one (NOSCRIPT until EVAL registered it)', async () => {
    const script = '#!lua flags=allow-key-locking\nreturn redis.call("INCR", KEYS[1])';
    const sha = await redis.scriptLoad(script);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await redis.evalsha(sha, ['lua-key'], [])).toBe(1);
    const fresh = '#!lua flags=allow-key-locking\nreturn 7';
    const { createHash } = await import('node:crypto');
    const freshSha = createHash('sha1').update(fresh).digest('hex');
    await expect(redis.evalsha(freshSha, [], [])).rejects.toThrow(/NOSCRIPT/);
    expect(await redis.eval(fresh, [], [])).toBe(7);
    expect(await redis.evalsha(freshSha, [], [])).toBe(7);
  });

  it('sliding window 10/60 s: exactly 10 of 50 parallel calls pass, buckets are independent', async () => {
    // timeout 0: no fail-open race, so the count cannot depend on machine load
    const limiter = new Ratelimit({
      redis,
      limiter: Ratelimit.slidingWindow(10, '60 s'),
      prefix: 'rl-test',
      analytics: false,
      timeout: 0,
    });
    const before = Date.now();
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.limit('key-a')));
    expect(results.filter((r) => r.success)).toHaveLength(10);
    const remaining = results
      .filter((r) => r.success)
      .map((r) => r.remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const r of results) {
      expect(r.limit).toBe(10);
      expect(r.reset).toBeGreaterThan(before);
      expect(r.reset).toBeLessThanOrEqual(before + 60_000 + 1_000);
    }
    const other = await limiter.limit('key-b');
    expect(other).toMatchObject({ success: true, remaining: 9, limit: 10 });
    const names = standIn.commands.map((c) => c[0]);
    expect(names).toContain('EVALSHA');
    expect(names).toContain('EVAL');
  });

  it('works with the SDK defaults too (auto-pipelining, read-your-writes)', async () => {
    const pipelined = new Redis({ url: standIn.url, token: standIn.token });
    const limiter = new Ratelimit({
      redis: pipelined,
      limiter: Ratelimit.slidingWindow(10, '60 s'),
      prefix: 'rl-auto',
      timeout: 0,
    });
    standIn.clearCommands();
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.limit('key-c')));
    expect(results.filter((r) => r.success)).toHaveLength(10);
    expect(standIn.commands.length).toBeGreaterThan(0);
  });

  it('answers errors while Redis is stopped and recovers after start (fault tests)', async () => {
    await server.stop();
    await expect(redis.get('greeting')).rejects.toThrow(/redis/i);
    await server.start();
    expect(await redis.set('after', 'restart')).toBe('OK');
    expect(await redis.get('after')).toBe('restart');
    standIn.setDown(true);
    await expect(redis.get('after')).rejects.toThrow(/down/);
    standIn.setDown(false);
  });
});
