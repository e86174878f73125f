// The QStash schedule of the health re-check (docs/health.md "Schedule"), created with the sweep's by
// `npm run deploy:schedule`: POST {SITE_ORIGIN}/api/jobs/recheck every minute. Each round takes only the tools whose
// second of the day has come, so a million tools make about 700 checks a minute, never a burst. Fixed id: re-running
// updates it in place. wrangler.toml's cron trigger runs the same round as a fallback (functions/worker.ts).
import { Client } from '@upstash/qstash';

export const RECHECK_SCHEDULE_ID = 'tooldir-recheck';
export const RECHECK_CRON = '* * * * *';

/** Creates or updates the schedule; `origin` was checked by createSweepSchedule's rule (https, or loopback). */
export async function createRecheckSchedule(options: { token: string; baseUrl?: string; siteOrigin: string }) {
  const destination = `${new URL(options.siteOrigin).origin}/api/jobs/recheck`;
  const client = new Client({ token: options.token, ...(options.baseUrl && { baseUrl: options.baseUrl }) });
  const { scheduleId } = await client.schedules.create({
    scheduleId: RECHECK_SCHEDULE_ID,
    destination,
    cron: RECHECK_CRON,
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    // A lost round is harmless (the next minute's takes its tools); retrying one late would only pile rounds up.
    retries: 0,
  });
  return { scheduleId, destination, cron: RECHECK_CRON };
}
