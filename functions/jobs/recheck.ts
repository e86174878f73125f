// POST /api/jobs/recheck – a round of health re-checks (docs/health.md): the due tools, or with {"site_ids": [...]} those
// live tools now even if checked today. On a QStash schedule every minute (src/deploy/recheck-schedule.ts; the
// Worker's cron as fallback); the operator token in local mode. Safe to deliver twice: a claim holds each tool.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { invalidInput, ServiceError } from '../../src/errors';
import { HEALTH_MAX_SITE_IDS } from '../../src/catalog/health-states';
import { runHealthRound } from '../../src/health/run-round';
import { requireJobSignature } from './verify-qstash';
import { jobBodyLimit } from './job-handler';
import type { AppEnv } from '../types';

const recheckMessage = z.object({
  site_ids: z
    .array(z.uuid({ error: 'site_ids must be UUIDs' }), { error: 'site_ids must be an array of site ids' })
    .min(1, { error: 'site_ids: name at least one site, or leave it out for a round of due tools' })
    .max(HEALTH_MAX_SITE_IDS, { error: `site_ids: at most ${HEALTH_MAX_SITE_IDS} per request` })
    .optional(),
});

function parseJson(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_json', 'The job body is not valid JSON.');
  }
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.post('/api/jobs/recheck', jobBodyLimit, requireJobSignature, async (c) => {
    const parsed = recheckMessage.strict().safeParse(parseJson(await c.req.text()));
    if (!parsed.success) throw invalidInput(parsed.error, 'Invalid job body.');
    const siteIds = parsed.data.site_ids ? [...new Set(parsed.data.site_ids.map((id) => id.toLowerCase()))] : undefined;
    const report = await runHealthRound(c.get('deps'), siteIds ? { siteIds } : {});
    return c.json({ ok: true, outcome: 'rechecked', ...report });
  });
}
