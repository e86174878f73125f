// DELETE /api/v1/webhooks/{webhook_id} – remove an endpoint (its pending deliveries are dropped)
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteWebhook } from '../../../src/webhooks/delete-webhook';
import { requireApiKey } from '../../middleware/api-key-auth';
import { rateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';
import { WebhookIdParam } from './webhook-schemas';

const route = createRoute({
  method: 'delete',
  path: '/api/v1/webhooks/{webhook_id}',
  operationId: 'deleteWebhook',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description: 'Nothing more is sent to it, retries included. Its delivery log goes with it.',
  security: bearerSecurity,
  middleware: [requireApiKey, rateLimit('webhooks')] as const,
  request: { params: WebhookIdParam },
  responses: {
    204: { description: 'Deleted' },
    404: errorContent('No webhook with this id, or not yours (code not_found)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await deleteWebhook({ deps: c.get('deps'), actor, input: { webhookId: c.req.valid('param').webhook_id } });
    return c.body(null, 204);
  });
}
