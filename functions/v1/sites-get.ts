// GET /api/v1/sites/{site_id} – read one of the caller's submissions
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { getSubmission } from '../../src/submissions/get';
import { requireApiKey } from '../middleware/api-key-auth';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { PendingPaymentRecord, SiteDetail, bearerSecurity } from './schemas';
import { errorContent, keyedErrors } from './error-responses';

const route = createRoute({
  method: 'get',
  path: '/api/v1/sites/{site_id}',
  operationId: 'getSite',
  tags: ['Submissions'],
  summary: 'Get one submission',
  description:
    'Looks in submissions past payment first, then in unpaid pending records. Only your own submissions. A site record here ' +
    'also carries its `history` (every status, oldest first) and, while it waits, its `queue` position; the list does not.',
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  // A malformed id is a 404 like any unknown id, so the path parameter is only typed, not constrained.
  request: {
    params: z.object({
      site_id: z.string().openapi({ format: 'uuid', example: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a' }),
    }),
  },
  responses: {
    200: {
      content: { 'application/json': { schema: z.union([SiteDetail, PendingPaymentRecord]) } },
      description:
        'A site record with history and queue position, or a pending-payment record (status pending_payment) with its checkout_url',
    },
    404: errorContent('No submission with this id, or not yours (code not_found)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'read', actor.accountId);
    const record = await getSubmission({ deps: c.get('deps'), actor, input: { siteId: c.req.valid('param').site_id } });
    return c.json(record, 200);
  });
}
