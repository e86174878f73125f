// When the statistics jobs run (docs/stats.md): the QStash schedules (./stats-schedules.ts) and the Worker's
// cron fallbacks (wrangler.toml [triggers], told apart in functions/worker.ts) use these same expressions.

/** The roll-up, hourly: today's numbers in site_stats_daily lag by an hour at most. */
export const STATS_ROLLUP_CRON = '7 * * * *';
/** The weekly e-mail, Monday 08:30 UTC: the week before is complete. */
export const STATS_REPORT_CRON = '30 8 * * 1';
