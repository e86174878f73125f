import type { Deps } from '../../src/deps';
import { rollUpStats } from '../../src/stats/roll-up';
import { sendWeeklyReports } from '../../src/stats/weekly-report';

const ROLL_UP_INTERVAL_MS = 60_000;
const REPORT_INTERVAL_MS = 3_600_000;

/**
 * Without QStash nothing schedules the statistics jobs, so the Node process runs them itself (docs/stats.md):
 * the roll-up every minute (local numbers lag a minute at most), and, when STATS_WEEKLY_MAIL is on, the weekly
 * e-mail check every hour (each account is sent one report per week, whichever run claims it first). Returns
 * the function that stops both timers.
 */
export function startLocalStatsTimers(deps: Deps): () => void {
  if (deps.queue.kind !== 'local') return () => {};
  const rollUp = setInterval(() => {
    rollUpStats(deps).catch((error: unknown) => deps.log.error('statistics roll-up failed', { err: String(error) }));
  }, ROLL_UP_INTERVAL_MS);
  const report = setInterval(() => {
    sendWeeklyReports(deps).catch((error: unknown) =>
      deps.log.error('weekly statistics e-mail failed', { err: String(error) }),
    );
  }, REPORT_INTERVAL_MS);
  rollUp.unref();
  report.unref();
  return () => {
    clearInterval(rollUp);
    clearInterval(report);
  };
}
