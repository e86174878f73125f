// GET /api/v1/webhooks/{webhook_id}/deliveries – recent delivery attempts of one endpoint
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listDeliveries } from '../../src/webhooks/list-deliveries';
import { requireApiKey } from '../middleware/api-key-auth';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { bearerSecurity } from './schemas';
import { errorContent, keyedErrors } from './error-responses';
import { DeliveryList, WebhookIdParam } from './webhook-schemas';

const route = createRoute({
  method: 'get',
  path: '/api/v1/webhooks/{webhook_id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: 'Recent delivery attempts',
  description:
    'Each attempt: the event id, the status code or the error, the attempt number and when the next retry is due.',
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: { params: WebhookIdParam },
  responses: {
    200: { content: { 'application/json': { schema: DeliveryList } }, description: 'Attempts, newest first' },
    404: errorContent('No webhook with this id, or not yours (code not_found)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'read', actor.accountId);
    return c.json(
      await listDeliveries({ deps: c.get('deps'), actor, input: { webhookId: c.req.valid('param').webhook_id } }),
      200,
    );
  });
}
