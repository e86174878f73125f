// POST /api/jobs/review – the review step of the pipeline (QStash delivery; operator token in local mode)
import type { OpenAPIHono } from '@hono/zod-openapi';
import { requireJobSignature } from './verify-qstash';
import { jobBodyLimit, jobHandler } from './job-handler';
import type { AppEnv } from '../types';

export function register(app: OpenAPIHono<AppEnv>) {
  app.post('/api/jobs/review', jobBodyLimit, requireJobSignature, jobHandler('review'));
}
