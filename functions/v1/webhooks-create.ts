// POST /api/v1/webhooks – register an endpoint for the account's submission events
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../src/rate-limits/describe';
import { createWebhook } from '../../src/webhooks/create-webhook';
import { requireApiKey } from '../middleware/api-key-auth';
import { jsonObjectBody } from '../middleware/json-body';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { bearerSecurity } from './schemas';
import { errorContent, keyedErrors } from './error-responses';
import { CreateWebhookRequest, CreatedWebhook } from './webhook-schemas';
import { BODY_LIMIT_TEXT } from '../../src/body-limit';

const route = createRoute({
  method: 'post',
  path: '/api/v1/webhooks',
  operationId: 'createWebhook',
  tags: ['Webhooks'],
  summary: 'Register a webhook endpoint',
  description:
    'Every status change of your submissions is POSTed to the URL as a `site.status_changed` event, signed with ' +
    '`Tooldir-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>` (Stripe\'s scheme) and ' +
    'carrying `Tooldir-Event-Id`. Delivery is at least once: a 2xx within 10 s is success; anything else is retried for about ' +
    `a day and a half. At most 5 endpoints per account; ${describePolicy('webhooks')}.`,
  security: bearerSecurity,
  middleware: [requireApiKey, jsonObjectBody] as const,
  request: { body: { required: true, content: { 'application/json': { schema: CreateWebhookRequest } } } },
  responses: {
    201: {
      content: { 'application/json': { schema: CreatedWebhook } },
      description: 'Registered; the secret is shown only here',
    },
    400: errorContent(
      'Invalid body, or a URL that is not https or not a public address (codes invalid_request, invalid_json)',
    ),
    409: errorContent('The account already has 5 webhooks (code too_many_webhooks)'),
    413: errorContent(`Body larger than ${BODY_LIMIT_TEXT}`),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'webhooks', actor.accountId);
    return c.json(await createWebhook({ deps: c.get('deps'), actor, input: c.req.valid('json') }), 201);
  });
}
