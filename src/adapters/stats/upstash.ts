import type { CountRow, StatsStore } from './types';
import { COUNT_SCRIPT, countScriptRows, endOfDaySeconds } from './upstash-count-script';

/** A day's counters live a week past the day in Redis: the hourly roll-up has copied them into Postgres long before. */
export const REDIS_RETENTION_SECONDS = 8 * 86_400;
/** Fields per HSCAN call while the roll-up reads a day (each call is one billed command). */
const SCAN_COUNT = 1000;

/** One hash per UTC day; a field per tool and counter. A space separates them: slugs never hold one. */
export const dayKey = (day: string) => `tooldir:stats:${day}`;
/** The day's visitor marks: a field per mark (24 hex characters), valued by the events that reached it. */
export const marksKey = (day: string) => `tooldir:stats-marks:${day}`;
const field = (slug: string, counter: string) => `${slug} ${counter}`;

/**
 * The production engine (docs/stats.md "Engines"): Upstash Redis counters, the same database as the rate
 * limiter. A batch is one HTTP call, made after the responses: one EVAL of the counting script
 * (./upstash-count-script.ts), which passes the rows through their visitor marks and adds what passes; counts are
 * exact. The roll-up reads a day back with HSCAN.
 */
export function createUpstashStatsStore(options: { url: string; token: string; fetch?: typeof fetch }): StatsStore {
  const redis = createUpstashRest(options);
  return {
    kind: 'redis',
    async record(day, rows) {
      if (rows.length === 0) return;
      await redis.command([
        'EVAL',
        COUNT_SCRIPT,
        2,
        dayKey(day),
        marksKey(day),
        REDIS_RETENTION_SECONDS,
        endOfDaySeconds(day),
        ...countScriptRows(rows, field),
      ]);
    },
    async readDay(day) {
      const rows: CountRow[] = [];
      let cursor = '0';
      do {
        const [next, flat] = (await redis.command(['HSCAN', dayKey(day), cursor, 'COUNT', SCAN_COUNT])) as [
          string,
          string[],
        ];
        for (let i = 0; i + 1 < flat.length; i += 2) {
          const [slug = '', counter = ''] = String(flat[i]).split(' ');
          rows.push({ slug, counter, n: Number(flat[i + 1]) });
        }
        cursor = String(next);
      } while (cursor !== '0');
      return rows;
    },
    // Each day's marks expire at the end of the day (EXPIREAT in the script): nothing is left to forget.
    async forgetMarksBefore() {},
  };
}

/**
 * The two commands the counters need (EVAL of the counting script, HSCAN) over Upstash's REST API: a command is
 * one POST of a JSON array answered `{"result"}` or `{"error"}`. It stands in for the @upstash/redis client, whose
 * hundreds of commands cost the Worker bundle about 21 KiB gzipped (docs/bench.md "Worker bundle"; the rate
 * limiter does the same, ../ratelimit/upstash-scripts.ts).
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
    if (!response.ok || typeof error === 'string')
      throw new Error(typeof error === 'string' ? error : `Upstash answered HTTP ${response.status}`);
    return parsed;
  };
  const resultOf = (envelope: unknown) => {
    const { result, error } = (envelope ?? {}) as { result?: unknown; error?: unknown };
    if (typeof error === 'string') throw new Error(error);
    return result;
  };
  return {
    command: async (command: unknown[]) => resultOf(await post('', command)),
  };
}
