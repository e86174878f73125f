// POST /api/jobs/refund – refund a paid submission rejected before it went live (QStash delivery; operator token in local mode)
import type { OpenAPIHono } from '@hono/zod-openapi';
import { requireJobSignature } from './verify-qstash';
import { jobBodyLimit, jobHandler } from './job-handler';
import type { AppEnv } from '../types';

export function register(app: OpenAPIHono<AppEnv>) {
  app.post('/api/jobs/refund', jobBodyLimit, requireJobSignature, jobHandler('refund'));
}
