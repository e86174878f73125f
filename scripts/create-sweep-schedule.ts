// Creates (or replaces) the QStash schedule that runs the pipeline sweep every 5 minutes in production.
// Usage: QSTASH_TOKEN=... SITE_ORIGIN=https://tooldir.example npx tsx scripts/create-sweep-schedule.ts
import { Client } from '@upstash/qstash';

const SCHEDULE_ID = 'tooldir-sweep';
const CRON = '*/5 * * * *';

async function main(): Promise<void> {
  const token = process.env.QSTASH_TOKEN?.trim();
  const origin = process.env.SITE_ORIGIN?.trim().replace(/\/+$/, '');
  if (!token || !origin) {
    console.error('QSTASH_TOKEN and SITE_ORIGIN (the public https origin of the service) must be set.');
    process.exit(2);
  }
  const client = new Client({ token, ...(process.env.QSTASH_URL?.trim() && { baseUrl: process.env.QSTASH_URL.trim() }) });
  const destination = `${origin}/api/jobs/sweep`;
  // A fixed scheduleId makes the script idempotent: running it again updates the one schedule.
  const { scheduleId } = await client.schedules.create({
    scheduleId: SCHEDULE_ID,
    destination,
    cron: CRON,
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    retries: 2,
  });
  console.log(`QStash schedule ${scheduleId}: POST ${destination} on "${CRON}"`);
}

await main();
