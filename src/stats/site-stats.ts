import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { invalidInput, ServiceError } from '../errors';
import { isUuid } from '../ids';
import { clickThroughRate } from './click-through';
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS, statsInputSchema, type SiteStats, type StatsInput } from './stats-schemas';
import { addDays, daysInRange, isCalendarDay, utcDay } from './utc-day';
import { placements } from './counters';

/** The range a request asks for, checked: calendar days, from ≤ to, at most MAX_STATS_DAYS days. */
export function statsRange(input: { from?: string; to?: string }, today: string): { from: string; to: string } {
  for (const name of ['from', 'to'] as const) {
    const value = input[name];
    if (value !== undefined && !isCalendarDay(value)) {
      throw new ServiceError('invalid_request', `${name} must be a calendar date YYYY-MM-DD, got "${value}".`, {
        field: name,
      });
    }
  }
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -(DEFAULT_STATS_DAYS - 1));
  if (from > to)
    throw new ServiceError('invalid_request', `from (${from}) must not be after to (${to}).`, { field: 'from' });
  const days = daysInRange(from, to);
  if (days > MAX_STATS_DAYS)
    throw new ServiceError('invalid_request', `The range has ${days} days; at most ${MAX_STATS_DAYS} per request.`);
  return { from, to };
}

type DayRow = {
  date: string;
  views: number;
  clicks: number;
  sponsored: number;
  featured: number;
  standard: number;
  badge_loads: number;
};

const notFound = () => new ServiceError('not_found', 'No submission with this site_id among yours.');

/**
 * One of the caller's tools, per UTC day (a core verb: REST, MCP and the account page). One statement: the
 * ownership check, every day of the range (zeros where the roll-up wrote nothing) and the counts. Another
 * account's site, an unknown id and an unpaid pending record are all not_found, as on the other site routes.
 */
export async function getSiteStats({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: StatsInput;
}): Promise<SiteStats> {
  const parsed = statsInputSchema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error, 'The statistics request is invalid.');
  const { from, to } = statsRange(parsed.data, utcDay(deps.now()));
  const siteId = parsed.data.site_id;
  if (!isUuid(siteId)) throw notFound();
  const rows = await queryRows<DayRow>(
    deps.db,
    sql`SELECT to_char(d, 'YYYY-MM-DD') AS date, coalesce(st.views, 0) AS views, coalesce(st.clicks, 0) AS clicks,
        coalesce(st.impressions_sponsored, 0) AS sponsored, coalesce(st.impressions_featured, 0) AS featured,
        coalesce(st.impressions_standard, 0) AS standard, coalesce(st.badge_loads, 0) AS badge_loads
      FROM sites s CROSS JOIN generate_series(${from}::date, ${to}::date, interval '1 day') AS d
      LEFT JOIN site_stats_daily st ON st.site_id = s.id AND st.day = d::date
      WHERE s.id = ${siteId}::uuid AND s.account_id = ${actor.accountId}::uuid
      ORDER BY d`,
  );
  if (rows.length === 0) throw notFound();
  return toSiteStats(siteId, from, to, rows);
}

function toSiteStats(siteId: string, from: string, to: string, rows: DayRow[]): SiteStats {
  const totals = {
    views: 0,
    clicks: 0,
    impressions: 0,
    badge_loads: 0,
    impressions_by_placement: { sponsored: 0, featured: 0, standard: 0 },
  };
  const days = rows.map((r) => {
    const placement = { sponsored: Number(r.sponsored), featured: Number(r.featured), standard: Number(r.standard) };
    const day = {
      date: r.date,
      views: Number(r.views),
      clicks: Number(r.clicks),
      impressions: placement.sponsored + placement.featured + placement.standard,
      badge_loads: Number(r.badge_loads),
    };
    totals.views += day.views;
    totals.clicks += day.clicks;
    totals.impressions += day.impressions;
    totals.badge_loads += day.badge_loads;
    for (const key of placements) totals.impressions_by_placement[key] += placement[key];
    return day;
  });
  return { site_id: siteId, from, to, days, totals: { ...totals, click_through_rate: clickThroughRate(totals) } };
}
