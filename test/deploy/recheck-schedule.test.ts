// The health re-check's schedule against the QStash stand-in: a round every minute at /api/jobs/recheck, no retries
// (the next minute's round takes a lost one's tools), created once however often the command runs.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRecheckSchedule } from '../../src/deploy/recheck-schedule';
import { type QStashStandIn, startQStashStandIn } from '../helpers/standins/qstash-server';

let qstash: QStashStandIn;
beforeAll(async () => {
  qstash = await startQStashStandIn();
});
afterAll(() => qstash.close());

it('creates the every-minute schedule for SITE_ORIGIN, once however often it runs', async () => {
  for (let i = 0; i < 2; i++)
    await createRecheckSchedule({ token: qstash.token, baseUrl: qstash.url, siteOrigin: 'https://tooldir.example/' });
  expect(qstash.schedules).toEqual([
    expect.objectContaining({
      scheduleId: 'tooldir-recheck',
      destination: 'https://tooldir.example/api/jobs/recheck',
      cron: '* * * * *',
    }),
  ]);
});
