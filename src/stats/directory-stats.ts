import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { clickThroughRate } from './click-through';
import { addDays, utcDay } from './utc-day';

export interface DirectoryDay {
  date: string;
  views: number;
  clicks: number;
  impressions: number;
  badge_loads: number;
}

export interface TopTool {
  site_id: string;
  name: string;
  slug: string | null;
  is_feature: boolean;
  is_sponsor: boolean;
  views: number;
  clicks: number;
  impressions: number;
  badge_loads: number;
  click_through_rate: number | null;
}

export interface DirectoryStats {
  from: string;
  to: string;
  days: DirectoryDay[];
  /** Impressions by placement over the range: what featured and sponsored listings are shown, in numbers. */
  placements: { sponsored: number; featured: number; standard: number };
  top: TopTool[];
}

type DayRow = DirectoryDay & { sponsored: number; featured: number; standard: number };

/**
 * The operator's view of the whole directory (a core verb for /admin; docs/stats.md): totals per UTC day over
 * the last `days` days (zeros included) with impressions by placement, and the tools with the most views. Two
 * statements over site_stats_daily's day index.
 */
export async function getDirectoryStats(
  deps: Deps,
  options: { days?: number; top?: number } = {},
): Promise<DirectoryStats> {
  const to = utcDay(deps.now());
  const from = addDays(to, -((options.days ?? 30) - 1));
  const [days, top] = await Promise.all([
    queryRows<DayRow>(
      deps.db,
      sql`SELECT to_char(d, 'YYYY-MM-DD') AS date, coalesce(sum(st.views), 0)::int AS views, coalesce(sum(st.clicks), 0)::int AS clicks,
          coalesce(sum(st.impressions_sponsored), 0)::int AS sponsored, coalesce(sum(st.impressions_featured), 0)::int AS featured,
          coalesce(sum(st.impressions_standard), 0)::int AS standard, coalesce(sum(st.badge_loads), 0)::int AS badge_loads
        FROM generate_series(${from}::date, ${to}::date, interval '1 day') AS d
        LEFT JOIN site_stats_daily st ON st.day = d::date
        GROUP BY d ORDER BY d`,
    ),
    queryRows<Omit<TopTool, 'click_through_rate'>>(
      deps.db,
      sql`SELECT s.id AS site_id, s.name, s.slug, s.is_feature, s.is_sponsor, t.views, t.clicks, t.impressions, t.badge_loads
        FROM (SELECT site_id, sum(views)::int AS views, sum(clicks)::int AS clicks,
                sum(impressions_sponsored + impressions_featured + impressions_standard)::int AS impressions, sum(badge_loads)::int AS badge_loads
              FROM site_stats_daily WHERE day BETWEEN ${from}::date AND ${to}::date GROUP BY site_id
              ORDER BY sum(views) DESC, sum(clicks) DESC, site_id LIMIT ${options.top ?? 10}) t
        JOIN sites s ON s.id = t.site_id
        ORDER BY t.views DESC, t.clicks DESC, s.id`,
    ),
  ]);
  const placements = { sponsored: 0, featured: 0, standard: 0 };
  for (const d of days) {
    placements.sponsored += Number(d.sponsored);
    placements.featured += Number(d.featured);
    placements.standard += Number(d.standard);
  }
  return {
    from,
    to,
    days: days.map((d) => ({
      date: d.date,
      views: Number(d.views),
      clicks: Number(d.clicks),
      impressions: Number(d.sponsored) + Number(d.featured) + Number(d.standard),
      badge_loads: Number(d.badge_loads),
    })),
    placements,
    top: top.map((t) => ({
      ...t,
      is_feature: Boolean(t.is_feature),
      is_sponsor: Boolean(t.is_sponsor),
      click_through_rate: clickThroughRate(t),
    })),
  };
}
