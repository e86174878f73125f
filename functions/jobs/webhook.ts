// POST /api/jobs/webhook – one delivery attempt of a submitter's webhook (QStash delivery; operator token in local mode)
import type { OpenAPIHono } from '@hono/zod-openapi';
import { requireJobSignature } from './verify-qstash';
import { jobBodyLimit, jobHandler } from './job-handler';
import type { AppEnv } from '../types';

export function register(app: OpenAPIHono<AppEnv>) {
  app.post('/api/jobs/webhook', jobBodyLimit, requireJobSignature, jobHandler('webhook'));
}
