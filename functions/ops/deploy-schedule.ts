// `npm run deploy:schedule`: the operator command that creates (or updates) the QStash schedules of the sweep and
// of the statistics jobs.
// Reads QSTASH_TOKEN, SITE_ORIGIN (and optionally QSTASH_URL, SWEEP_CRON); the schedule itself is
// src/deploy/sweep-schedule.ts. Exit codes: 0 done, 1 QStash refused, 2 missing configuration.
import { pathToFileURL } from 'node:url';
import { createSweepSchedule } from '../../src/deploy/sweep-schedule';
import { createStatsSchedules } from '../../src/deploy/stats-schedules';

async function main() {
  const token = process.env.QSTASH_TOKEN?.trim();
  const siteOrigin = process.env.SITE_ORIGIN?.trim();
  if (!token || !siteOrigin) {
    console.error(
      'Set QSTASH_TOKEN and SITE_ORIGIN (and optionally QSTASH_URL, SWEEP_CRON), e.g.\n  QSTASH_TOKEN=... SITE_ORIGIN=https://tooldir.example npm run deploy:schedule',
    );
    process.exit(2);
  }
  try {
    const baseUrl = process.env.QSTASH_URL?.trim() || undefined;
    const made = await createSweepSchedule({
      token,
      siteOrigin,
      baseUrl,
      cron: process.env.SWEEP_CRON?.trim() || undefined,
    });
    console.log(`schedule ${made.scheduleId}: POST ${made.destination} on "${made.cron}"`);
    // The statistics roll-up and weekly e-mail (docs/stats.md); SITE_ORIGIN passed the sweep's check above.
    for (const stats of await createStatsSchedules({ token, siteOrigin, baseUrl })) {
      console.log(`schedule ${stats.scheduleId}: POST ${stats.destination} on "${stats.cron}"`);
    }
  } catch (error) {
    console.error(`could not create the schedule: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
