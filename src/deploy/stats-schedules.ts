// The QStash schedules of the statistics jobs (docs/stats.md), created with the sweep's by `npm run deploy:schedule`:
// POST {SITE_ORIGIN}/api/jobs/stats-rollup hourly and /api/jobs/stats-report on Monday mornings (UTC). Fixed ids,
// so re-running updates them in place. wrangler.toml's cron triggers use the same expressions as fallbacks.
import { Client } from '@upstash/qstash';
import { STATS_REPORT_CRON, STATS_ROLLUP_CRON } from './stats-crons';
export const STATS_SCHEDULES = [
  { scheduleId: 'tooldir-stats-rollup', path: '/api/jobs/stats-rollup', cron: STATS_ROLLUP_CRON },
  { scheduleId: 'tooldir-stats-report', path: '/api/jobs/stats-report', cron: STATS_REPORT_CRON },
] as const;

/** Creates or updates both schedules; `origin` was checked by createSweepSchedule's rule (https, or loopback). */
export async function createStatsSchedules(options: { token: string; baseUrl?: string; siteOrigin: string }) {
  const origin = new URL(options.siteOrigin).origin;
  const client = new Client({ token: options.token, ...(options.baseUrl && { baseUrl: options.baseUrl }) });
  const made = [];
  for (const schedule of STATS_SCHEDULES) {
    const destination = `${origin}${schedule.path}`;
    const { scheduleId } = await client.schedules.create({
      scheduleId: schedule.scheduleId,
      destination,
      cron: schedule.cron,
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
      retries: 3,
    });
    made.push({ scheduleId, destination, cron: schedule.cron });
  }
  return made;
}
