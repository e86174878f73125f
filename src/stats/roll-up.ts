import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { toDayCounts, type DayCounts } from './counters';
import { addDays, utcDay } from '../utc-day';

/** Tools per statement: keeps each statement's JSON parameter small on a big directory. */
const BATCH = 500;

export interface RollUpReport {
  days: { day: string; tools: number }[];
}

/**
 * Copies the engine's counters of each day into site_stats_daily (a core verb; the job behind
 * POST /api/jobs/stats-rollup, the Worker's cron and the local timer). Every column of a (tool, day) row is set
 * to the engine's total for that day, never added to, so running it twice for the same day leaves the same
 * numbers (idempotent by day and tool). A day's counters only grow, so the larger of the stored and the read
 * total wins: two runs that overlap cannot move a row back to an older reading. By default it rolls up yesterday (final once the day is
 * over) and today (partial, rewritten by the next run). Counts reach the tool through the slug history, so what
 * was counted under a slug the tool had before a rename is still its own; slugs that name no site are dropped by the join. It also
 * forgets the visitor marks of every day before today.
 */
export async function rollUpStats(deps: Deps, input: { days?: readonly string[] } = {}): Promise<RollUpReport> {
  const today = utcDay(deps.now());
  const days = input.days?.length ? [...new Set(input.days)] : [addDays(today, -1), today];
  // The visitor marks of days that are over go now, even on a day nobody was counted yet (docs/stats.md).
  await deps.stats.forgetMarksBefore(today);
  const report: RollUpReport = { days: [] };
  for (const day of days) {
    const counts = await countsBySite(deps, toDayCounts(await deps.stats.readDay(day)));
    const rows = [...counts].map(([site_id, c]) => ({
      site_id,
      views: c.views ?? 0,
      clicks: c.clicks ?? 0,
      impressions_sponsored: c.impressions_sponsored ?? 0,
      impressions_featured: c.impressions_featured ?? 0,
      impressions_standard: c.impressions_standard ?? 0,
      badge_loads: c.badge_loads ?? 0,
    }));
    let tools = 0;
    for (let i = 0; i < rows.length; i += BATCH) {
      const written = await queryRows<{ site_id: string }>(
        deps.db,
        sql`INSERT INTO site_stats_daily AS d (site_id, day, views, clicks, impressions_sponsored, impressions_featured, impressions_standard, badge_loads)
          SELECT s.id, ${day}::date, c.views, c.clicks, c.impressions_sponsored, c.impressions_featured, c.impressions_standard, c.badge_loads
          FROM json_to_recordset(${JSON.stringify(rows.slice(i, i + BATCH))}::json)
            AS c(site_id uuid, views int, clicks int, impressions_sponsored int, impressions_featured int, impressions_standard int, badge_loads int)
          JOIN sites s ON s.id = c.site_id
          ON CONFLICT (site_id, day) DO UPDATE SET views = greatest(d.views, EXCLUDED.views), clicks = greatest(d.clicks, EXCLUDED.clicks),
            impressions_sponsored = greatest(d.impressions_sponsored, EXCLUDED.impressions_sponsored),
            impressions_featured = greatest(d.impressions_featured, EXCLUDED.impressions_featured),
            impressions_standard = greatest(d.impressions_standard, EXCLUDED.impressions_standard),
            badge_loads = greatest(d.badge_loads, EXCLUDED.badge_loads), rolled_up_at = now()
          RETURNING d.site_id`,
      );
      tools += written.length;
    }
    report.days.push({ day, tools });
  }
  return report;
}

/**
 * The engine counts by slug; a tool's day is the sum over every slug it ever had (site_slugs), so what was counted
 * under its old slug, before or after a rename (an old badge's load is counted at the address it redirects to, but
 * a load of the same day before the rename is under the old one), is still its own. Unknown slugs are dropped.
 */
async function countsBySite(deps: Deps, bySlug: DayCounts): Promise<DayCounts> {
  const slugs = [...bySlug.keys()];
  const bySite: DayCounts = new Map();
  for (let i = 0; i < slugs.length; i += BATCH) {
    const owners = await queryRows<{ slug: string; site_id: string }>(
      deps.db,
      sql`SELECT h.slug, h.site_id FROM json_array_elements_text(${JSON.stringify(slugs.slice(i, i + BATCH))}::json) AS c(slug)
          JOIN site_slugs h ON h.slug = c.slug`,
    );
    for (const { slug, site_id } of owners) {
      const sum = bySite.get(site_id) ?? {};
      for (const [counter, n] of Object.entries(bySlug.get(slug) ?? {}))
        sum[counter as keyof typeof sum] = (sum[counter as keyof typeof sum] ?? 0) + n;
      bySite.set(site_id, sum);
    }
  }
  return bySite;
}
