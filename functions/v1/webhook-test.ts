// POST /api/v1/webhooks/{webhook_id}/test – send a signed ping to an endpoint
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { sendTestPing } from '../../src/webhooks/send-test-ping';
import { requireApiKey } from '../middleware/api-key-auth';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { bearerSecurity } from './schemas';
import { errorContent, keyedErrors } from './error-responses';
import { QueuedPing, WebhookIdParam } from './webhook-schemas';

const route = createRoute({
  method: 'post',
  path: '/api/v1/webhooks/{webhook_id}/test',
  operationId: 'testWebhook',
  tags: ['Webhooks'],
  summary: 'Send a test ping',
  description:
    'Queues a `ping` event (`{"id","type":"ping","created","data":{"webhook_id","url"}}`), signed and retried like any ' +
    'other; follow it under deliveries. No request body.',
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: { params: WebhookIdParam },
  responses: {
    202: { content: { 'application/json': { schema: QueuedPing } }, description: 'The ping is on its way' },
    404: errorContent('No webhook with this id, or not yours (code not_found)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'webhooks', actor.accountId);
    return c.json(
      await sendTestPing({ deps: c.get('deps'), actor, input: { webhookId: c.req.valid('param').webhook_id } }),
      202,
    );
  });
}
