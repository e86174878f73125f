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
export function createUpstashStatsStore(options: { url: string; token: string; fetch?: typeof fetch }): StatsStore {
  const redis = createUpstashRest(options);
  return {
    kind: 'redis',
    async record(day, rows) {
      if (rows.length === 0) return;
      const key = dayKey(day);
      await redis.pipeline([
        ...rows.map(({ slug, counter, n }) => ['HINCRBY', key, field(slug, counter), n]),
        ['EXPIRE', key, REDIS_RETENTION_SECONDS],
      ]);
    },
    async readDay(day) {
      const rows: CountRow[] = [];
      let cursor = '0';
      do {
        const [next, flat] = (await redis.command(['HSCAN', dayKey(day), cursor, 'COUNT', SCAN_COUNT])) as [string, string[]];
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

/**
 * The three commands the counters need (HINCRBY, EXPIRE, HSCAN) over Upstash's REST API: a command is one POST of
 * a JSON array answered `{"result"}` or `{"error"}`, a pipeline one POST to /pipeline answered with one such
 * envelope per command. It stands in for the @upstash/redis client, whose hundreds of commands cost the Worker
 * bundle about 21 KiB gzipped (docs/bench.md "Worker bundle"; the rate limiter does the same,
 * ../ratelimit/upstash-scripts.ts).
 */
function createUpstashRest(options: { url: string; token: string; fetch?: typeof fetch }) {
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const response = await (options.fetch ?? fetch)(`${options.url.replace(/\/$/, '')}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json().catch(() => ({}))) as unknown;
    const error = (parsed as { error?: unknown } | null)?.error;
    if (!response.ok || typeof error === 'string') throw new Error(typeof error === 'string' ? error : `Upstash answered HTTP ${response.status}`);
    return parsed;
  };
  const resultOf = (envelope: unknown) => {
    const { result, error } = (envelope ?? {}) as { result?: unknown; error?: unknown };
    if (typeof error === 'string') throw new Error(error);
    return result;
  };
  return {
    command: async (command: unknown[]) => resultOf(await post('', command)),
    pipeline: async (commands: unknown[][]) => {
      const replies = await post('/pipeline', commands);
      if (!Array.isArray(replies) || replies.length !== commands.length) throw new Error('Upstash answered a pipeline with the wrong number of replies');
      return replies.map(resultOf);
    },
  };
}
