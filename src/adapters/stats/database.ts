import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { StatsStore } from './types';

/**
 * The local engine: counters in the stat_counters table of the same database (PGlite by default), one upsert
 * per counted request that adds to the existing rows, so concurrent requests never lose a count. Exact.
 */
export function createDatabaseStatsStore(db: Db): StatsStore {
  return {
    kind: 'database',
    async record(day, rows) {
      if (rows.length === 0) return;
      await queryRows(
        db,
        sql`INSERT INTO stat_counters (day, slug, counter, n)
          SELECT ${day}::date, e.slug, e.counter, e.n FROM json_to_recordset(${JSON.stringify(rows)}::json) AS e(slug text, counter text, n bigint)
          ON CONFLICT (day, slug, counter) DO UPDATE SET n = stat_counters.n + EXCLUDED.n`,
      );
    },
    async readDay(day) {
      const rows = await queryRows<{ slug: string; counter: string; n: string | number }>(
        db,
        sql`SELECT slug, counter, n FROM stat_counters WHERE day = ${day}::date`,
      );
      return rows.map((r) => ({ slug: r.slug, counter: r.counter, n: Number(r.n) }));
    },
  };
}
