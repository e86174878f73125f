import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { type GatedCount, MAX_GATES, type StatsStore } from './types';

/** The rows as the statement reads them: the gates spread over three (mark, cap) column pairs, unused ones null. */
const flat = (rows: readonly GatedCount[]) =>
  rows.map(({ slug, counter, n, gates }) => {
    if (gates.length === 0 || gates.length > MAX_GATES) throw new Error(`a counted row needs 1 to ${MAX_GATES} gates`);
    const [g1, g2, g3] = gates;
    return {
      slug,
      counter,
      n,
      m1: g1!.mark,
      c1: g1!.cap,
      m2: g2?.mark ?? null,
      c2: g2?.cap ?? null,
      m3: g3?.mark ?? null,
      c3: g3?.cap ?? null,
    };
  });

/**
 * The local engine: counters in the stat_counters table of the same database (PGlite by default), visitor marks
 * in stat_visitor_marks (unlogged: never in the WAL, so never in a backup, a replica or a point-in-time restore),
 * one statement per batch. Exact.
 *
 * The statement passes the rows through their gates level by level: each level upserts its marks (adding what
 * reaches them; sorted, so concurrent writers lock marks in one order and never deadlock) and lets through
 * min(reaching, cap − reached before), read from the upsert's RETURNING: the row lock serialises writers, so
 * two batches cannot both take a mark's last place. Rows that share a mark at a level are summed first (two cards'
 * events of one client and tool reach its daily mark together). What passes the last level is added to the
 * counters. Marks of earlier days are deleted in the same statement (and by the roll-up, for a quiet day).
 */
export function createDatabaseStatsStore(db: Db): StatsStore {
  return {
    kind: 'database',
    async record(day, rows) {
      if (rows.length === 0) return;
      await queryRows(
        db,
        sql`WITH input AS (
            SELECT r.slug, r.counter, r.m1, r.c1, r.m2, r.c2, r.m3, r.c3, sum(r.n)::int AS n
            FROM json_to_recordset(${JSON.stringify(flat(rows))}::json)
              AS r(slug text, counter text, n int, m1 text, c1 int, m2 text, c2 int, m3 text, c3 int)
            WHERE r.n > 0
            GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
          ),
          forget AS (DELETE FROM stat_visitor_marks WHERE day < ${day}::date),
          g1 AS (
            INSERT INTO stat_visitor_marks AS v (day, mark, n)
            SELECT ${day}::date, decode(m1, 'hex'), n FROM input ORDER BY m1
            ON CONFLICT (day, mark) DO UPDATE SET n = v.n + EXCLUDED.n
            RETURNING v.mark, v.n
          ),
          p1 AS (
            SELECT i.slug, i.counter, i.m2, i.c2, i.m3, i.c3, least(i.n, greatest(0, i.c1 - (g.n - i.n))) AS n
            FROM input i JOIN g1 g ON g.mark = decode(i.m1, 'hex')
          ),
          s2 AS (SELECT slug, counter, m2, c2, m3, c3, sum(n)::int AS n FROM p1 GROUP BY 1, 2, 3, 4, 5, 6),
          g2 AS (
            INSERT INTO stat_visitor_marks AS v (day, mark, n)
            SELECT ${day}::date, decode(m2, 'hex'), n FROM s2 WHERE m2 IS NOT NULL AND n > 0 ORDER BY m2
            ON CONFLICT (day, mark) DO UPDATE SET n = v.n + EXCLUDED.n
            RETURNING v.mark, v.n
          ),
          p2 AS (
            SELECT s.slug, s.counter, s.m3, s.c3,
              CASE WHEN s.m2 IS NULL THEN s.n ELSE coalesce(least(s.n, greatest(0, s.c2 - (g.n - s.n))), 0) END AS n
            FROM s2 s LEFT JOIN g2 g ON g.mark = decode(s.m2, 'hex')
          ),
          s3 AS (SELECT slug, counter, m3, c3, sum(n)::int AS n FROM p2 GROUP BY 1, 2, 3, 4),
          g3 AS (
            INSERT INTO stat_visitor_marks AS v (day, mark, n)
            SELECT ${day}::date, decode(m3, 'hex'), n FROM s3 WHERE m3 IS NOT NULL AND n > 0 ORDER BY m3
            ON CONFLICT (day, mark) DO UPDATE SET n = v.n + EXCLUDED.n
            RETURNING v.mark, v.n
          ),
          passed AS (
            SELECT s.slug, s.counter,
              CASE WHEN s.m3 IS NULL THEN s.n ELSE coalesce(least(s.n, greatest(0, s.c3 - (g.n - s.n))), 0) END AS n
            FROM s3 s LEFT JOIN g3 g ON g.mark = decode(s.m3, 'hex')
          )
          INSERT INTO stat_counters (day, slug, counter, n)
          SELECT ${day}::date, slug, counter, sum(n) FROM passed GROUP BY slug, counter HAVING sum(n) > 0 ORDER BY slug, counter
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
    async forgetMarksBefore(day) {
      await queryRows(db, sql`DELETE FROM stat_visitor_marks WHERE day < ${day}::date`);
    },
  };
}
