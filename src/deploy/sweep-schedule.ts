// The QStash schedule that calls POST {SITE_ORIGIN}/api/jobs/sweep (run by `npm run deploy:schedule`,
// functions/ops/deploy-schedule.ts).
// Idempotent: the schedule has a fixed id, so re-running after a change of origin or cron updates it in place.
import { Client } from '@upstash/qstash';

export const SWEEP_SCHEDULE_ID = 'tooldir-sweep';
export const DEFAULT_SWEEP_CRON = '*/5 * * * *';

export interface SweepScheduleOptions {
  token: string;
  /** QStash API base (QSTASH_URL); the SDK's default when unset. */
  baseUrl?: string;
  siteOrigin: string;
  cron?: string;
}

/** Creates or updates the sweep schedule; returns its id and destination. */
export async function createSweepSchedule(
  options: SweepScheduleOptions,
): Promise<{ scheduleId: string; destination: string; cron: string }> {
  const origin = new URL(options.siteOrigin);
  if (origin.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(origin.hostname)) {
    throw new Error(`SITE_ORIGIN must be https:// (QStash delivers jobs there): ${options.siteOrigin}`);
  }
  const destination = `${origin.origin}/api/jobs/sweep`;
  const cron = options.cron ?? DEFAULT_SWEEP_CRON;
  const client = new Client({ token: options.token, ...(options.baseUrl && { baseUrl: options.baseUrl }) });
  const { scheduleId } = await client.schedules.create({
    scheduleId: SWEEP_SCHEDULE_ID,
    destination,
    cron,
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    retries: 3,
  });
  return { scheduleId, destination, cron };
}
