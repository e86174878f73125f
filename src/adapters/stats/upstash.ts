import type { Redis } from '@upstash/redis';
import type { CountRow, StatsStore } from './types';

/** A day's counters live a week past the day in Redis: the hourly roll-up has copied them into Postgres long before. */
export const REDIS_RETENTION_SECONDS = 8 * 86_400;
/** Fields per HSCAN call while the roll-up reads a day (each call is one billed command). */
const SCAN_COUNT = 1000;

/** One hash per UTC day; a field per tool and counter. A space separates them: slugs never hold one. */
export const dayKey = (day: string) => `tooldir:stats:${day}`;
const field = (slug: string, counter: string) => `${slug} ${counter}`;

/**
 * The production engine (docs/stats.md "Engines"): Upstash Redis counters, the same database as the rate
 * limiter. A counted request is one pipelined HTTP call (HINCRBY per tool and counter, then EXPIRE), made after
 * the response; counts are exact. The roll-up reads a day back with HSCAN.
 */
export function createUpstashStatsStore(options: { url: string; token: string }): StatsStore {
  let client: Promise<Redis> | undefined;
  const redis = () =>
    (client ??= import('./redis-sdk')
      .then(({ Redis }) => new Redis({ url: options.url, token: options.token, retry: false, enableTelemetry: false, automaticDeserialization: false }))
      .catch((error: unknown) => {
        client = undefined; // a failed load is retried by the next call
        throw error;
      }));
  return {
    kind: 'redis',
    async record(day, rows) {
      if (rows.length === 0) return;
      const pipeline = (await redis()).pipeline();
      const key = dayKey(day);
      for (const { slug, counter, n } of rows) pipeline.hincrby(key, field(slug, counter), n);
      pipeline.expire(key, REDIS_RETENTION_SECONDS);
      await pipeline.exec();
    },
    async readDay(day) {
      const r = await redis();
      const rows: CountRow[] = [];
      let cursor = '0';
      do {
        const [next, flat] = await r.hscan(dayKey(day), cursor, { count: SCAN_COUNT });
        for (let i = 0; i + 1 < flat.length; i += 2) {
          const [slug = '', counter = ''] = String(flat[i]).split(' ');
          rows.push({ slug, counter, n: Number(flat[i + 1]) });
        }
        cursor = String(next);
      } while (cursor !== '0');
      return rows;
    },
  };
}
