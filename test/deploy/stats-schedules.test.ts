// The statistics schedules against the QStash stand-in: the roll-up hourly and the weekly e-mail on Mondays, with
// the same expressions as the Worker's cron fallbacks in wrangler.toml; re-running updates them in place.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStatsSchedules } from '../../src/deploy/stats-schedules';
import { STATS_REPORT_CRON, STATS_ROLLUP_CRON } from '../../src/deploy/stats-crons';
import { type QStashStandIn, startQStashStandIn } from '../helpers/standins/qstash-server';

let qstash: QStashStandIn;
beforeAll(async () => {
  qstash = await startQStashStandIn();
});
afterAll(() => qstash.close());

it('creates both schedules for SITE_ORIGIN, once however often it runs', async () => {
  for (let i = 0; i < 2; i++)
    await createStatsSchedules({ token: qstash.token, baseUrl: qstash.url, siteOrigin: 'https://tooldir.example/' });
  expect(qstash.schedules).toEqual([
    expect.objectContaining({
      scheduleId: 'tooldir-stats-rollup',
      destination: 'https://tooldir.example/api/jobs/stats-rollup',
      cron: '7 * * * *',
    }),
    expect.objectContaining({
      scheduleId: 'tooldir-stats-report',
      destination: 'https://tooldir.example/api/jobs/stats-report',
      cron: '30 8 * * 1',
    }),
  ]);
});

it('uses the cron expressions wrangler.toml triggers as fallbacks (functions/worker.ts tells them apart)', () => {
  const crons = /crons = (\[[^\]]*\])/.exec(readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8'))?.[1];
  expect(JSON.parse(crons!)).toEqual(['*/5 * * * *', STATS_ROLLUP_CRON, STATS_REPORT_CRON]);
});
