// POST /api/v1/sites/{site_id}/retry – put one of the caller's crawl_failed submissions back in the queue
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../src/rate-limits/describe';
import { MAX_RETRIES_PER_DAY, retrySite } from '../../src/submissions/retry';
import { requireApiKey } from '../middleware/api-key-auth';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { SiteRecord, bearerSecurity } from './schemas';
import { errorContent, keyedErrors } from './error-responses';

const route = createRoute({
  method: 'post',
  path: '/api/v1/sites/{site_id}/retry',
  operationId: 'retrySite',
  tags: ['Submissions'],
  summary: 'Retry a failed crawl',
  description:
    'Puts one of your submissions whose crawl failed (status crawl_failed) back to queued: the crawler tries it again ' +
    `with a fresh set of attempts. At most ${MAX_RETRIES_PER_DAY} retries per submission and UTC day. No body. ` +
    `Counts against the submit bucket (${describePolicy('submit')}).`,
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: {
    params: z.object({
      site_id: z.string().openapi({ format: 'uuid', example: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a' }),
    }),
  },
  responses: {
    202: {
      content: { 'application/json': { schema: SiteRecord } },
      description: 'Queued again: the site record (status queued)',
    },
    404: errorContent('No submission with this id, or not yours (code not_found)'),
    409: errorContent('The submission is not crawl_failed (code invalid_state; the message names its status)'),
    ...keyedErrors,
    429: errorContent(
      `Rate limit exceeded, or this submission was already retried ${MAX_RETRIES_PER_DAY} times today (code rate_limited); see Retry-After`,
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'submit', actor.accountId);
    const record = await retrySite({ deps: c.get('deps'), actor, input: { site_id: c.req.valid('param').site_id } });
    return c.json(record, 202);
  });
}
