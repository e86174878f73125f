// POST /api/jobs/stats-rollup – copy the counters into the daily table; POST /api/jobs/stats-report – the weekly
// e-mails to owners of live tools. Both on QStash schedules (src/deploy/stats-schedules.ts; operator token in
// local mode), both safe to deliver twice (docs/stats.md).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { invalidInput, ServiceError } from '../../src/errors';
import { rollUpStats } from '../../src/stats/roll-up';
import { sendWeeklyReports } from '../../src/stats/weekly-report';
import { isCalendarDay } from '../../src/stats/utc-day';
import { requireJobSignature } from './verify-qstash';
import { jobBodyLimit } from './job-handler';
import type { AppEnv } from '../types';

/** A roll-up of named days (a backfill after an outage); without `days`, yesterday and today. */
const rollUpMessage = z.object({
  days: z
    .array(z.string().refine(isCalendarDay, { error: 'days must be calendar dates YYYY-MM-DD' }), {
      error: 'days must be an array of dates',
    })
    .max(40, { error: 'days: at most 40 per delivery' })
    .optional(),
});

async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text();
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_json', 'The job body is not valid JSON.');
  }
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.post('/api/jobs/stats-rollup', jobBodyLimit, requireJobSignature, async (c) => {
    const parsed = rollUpMessage.safeParse(await jsonBody(c));
    if (!parsed.success) throw invalidInput(parsed.error, 'Invalid job body.');
    return c.json({
      ok: true,
      outcome: 'rolled_up',
      ...(await rollUpStats(c.get('deps'), { days: parsed.data.days })),
    });
  });
  app.post('/api/jobs/stats-report', jobBodyLimit, requireJobSignature, async (c) => {
    await jsonBody(c); // verified, and must be JSON like every job body; it carries nothing
    return c.json({ ok: true, ...(await sendWeeklyReports(c.get('deps'))) });
  });
}
