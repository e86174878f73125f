// `npm run deploy:schedule`: creates (or updates) the QStash schedule that calls POST {SITE_ORIGIN}/api/jobs/sweep.
// Idempotent: the schedule has a fixed id, so re-running after a change of origin or cron updates it in place.
import { Client } from '@upstash/qstash';
import { pathToFileURL } from 'node:url';

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
export async function createSweepSchedule(options: SweepScheduleOptions): Promise<{ scheduleId: string; destination: string; cron: string }> {
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

async function main() {
  const token = process.env.QSTASH_TOKEN?.trim();
  const siteOrigin = process.env.SITE_ORIGIN?.trim();
  if (!token || !siteOrigin) {
    console.error('Set QSTASH_TOKEN and SITE_ORIGIN (and optionally QSTASH_URL, SWEEP_CRON), e.g.\n  QSTASH_TOKEN=... SITE_ORIGIN=https://tooldir.example npm run deploy:schedule');
    process.exit(2);
  }
  try {
    const made = await createSweepSchedule({ token, siteOrigin, baseUrl: process.env.QSTASH_URL?.trim() || undefined, cron: process.env.SWEEP_CRON?.trim() || undefined });
    console.log(`schedule ${made.scheduleId}: POST ${made.destination} on "${made.cron}"`);
  } catch (error) {
    console.error(`could not create the schedule: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
