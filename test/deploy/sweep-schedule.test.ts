// The sweep schedule script against the QStash stand-in: creates the schedule once, updates it in place.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSweepSchedule, SWEEP_SCHEDULE_ID } from '../../src/deploy/sweep-schedule';
import { type QStashStandIn, startQStashStandIn } from '../helpers/standins/qstash-server';

let qstash: QStashStandIn;
beforeAll(async () => {
  qstash = await startQStashStandIn();
});
afterAll(() => qstash.close());

it('creates the sweep schedule for SITE_ORIGIN and updates the same schedule when re-run', async () => {
  const made = await createSweepSchedule({
    token: qstash.token,
    baseUrl: qstash.url,
    siteOrigin: 'https://tooldir.example/',
  });
  expect(made).toEqual({
    scheduleId: SWEEP_SCHEDULE_ID,
    destination: 'https://tooldir.example/api/jobs/sweep',
    cron: '*/5 * * * *',
  });
  await createSweepSchedule({
    token: qstash.token,
    baseUrl: qstash.url,
    siteOrigin: 'https://tooldir.example',
    cron: '*/10 * * * *',
  });
  expect(qstash.schedules).toEqual([
    expect.objectContaining({
      scheduleId: SWEEP_SCHEDULE_ID,
      destination: 'https://tooldir.example/api/jobs/sweep',
      cron: '*/10 * * * *',
    }),
  ]);
});

it('refuses a plain-http public origin (QStash would deliver signed jobs in clear text)', async () => {
  await expect(
    createSweepSchedule({ token: qstash.token, baseUrl: qstash.url, siteOrigin: 'http://tooldir.example' }),
  ).rejects.toThrow(/https/);
  expect(qstash.schedules.every((s) => s.destination.startsWith('https://'))).toBe(true);
});
