// GET /api/v1/webhooks – the account's webhook endpoints
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listWebhooks } from '../../../src/webhooks/list-webhooks';
import { requireApiKey } from '../../middleware/api-key-auth';
import { rateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { bearerSecurity } from '../schemas';
import { keyedErrors } from '../error-responses';
import { WebhookList } from './webhook-schemas';

const route = createRoute({
  method: 'get',
  path: '/api/v1/webhooks',
  operationId: 'listWebhooks',
  tags: ['Webhooks'],
  summary: 'List your webhook endpoints',
  description: 'Secrets are never listed: they are shown once, when the endpoint is created.',
  security: bearerSecurity,
  middleware: [requireApiKey, rateLimit('read')] as const,
  responses: {
    200: { content: { 'application/json': { schema: WebhookList } }, description: 'Your endpoints' },
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    return c.json(await listWebhooks({ deps: c.get('deps'), actor }), 200);
  });
}
