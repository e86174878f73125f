// DELETE /api/v1/sites/{site_id} – the owner withdraws a live listing (docs/pipeline.md "Withdrawal")
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../../src/rate-limits/describe';
import { withdrawSite } from '../../../src/submissions/withdraw';
import { announceWebhookEvents } from '../../../src/webhooks/announce';
import { requireApiKey } from '../../middleware/api-key-auth';
import { rateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { SiteDetail, bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';
import * as withdrawnEvent from './withdrawn-event';

const WITHDRAWN_EXAMPLE = {
  site_id: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a',
  name: 'Acme Writer',
  url: 'https://acme-writer.example/',
  status: 'rejected',
  is_feature: false,
  is_sponsor: false,
  submitted_at: '2026-11-21 21:05:03+00',
  rejection_reason: 'withdrawn by its owner',
  withdrawn_at: '2026-11-24T09:30:00.000Z',
  history: [
    { status: 'queued', at: '2026-11-21T21:05:03.000Z' },
    { status: 'crawling', at: '2026-11-21T21:05:04.000Z' },
    { status: 'pending_review', at: '2026-11-21T21:05:09.000Z' },
    { status: 'live', at: '2026-11-22T08:00:00.000Z' },
    { status: 'rejected', at: '2026-11-24T09:30:00.000Z', reason: 'withdrawn by its owner' },
  ],
};

const route = createRoute({
  method: 'delete',
  path: '/api/v1/sites/{site_id}',
  operationId: 'withdrawSite',
  tags: ['Submissions'],
  summary: 'Withdraw a live listing',
  description:
    'Takes one of your live listings out of the directory for good: it becomes rejected with rejection_reason ' +
    '"withdrawn by its owner" and withdrawn_at. Its page and GET /api/v1/tools/{slug} answer 410, it leaves search, ' +
    'categories, the sitemap, llms.txt and every list, a sponsored plan is cancelled at the end of the period already ' +
    'paid for (no refund), and its statistics stay readable. Listing it again is a new submission (the URL and name ' +
    'are free again); its slug is never given to another tool. Repeating the call answers the same record (200). Only ' +
    'a live listing can be withdrawn: a submission still in the pipeline, rejected, failed or unpaid is 409 ' +
    `invalid_state. Endpoints subscribed to site.withdrawn are told. No body. Counts against the submit bucket (${describePolicy('submit')}).`,
  security: bearerSecurity,
  middleware: [requireApiKey, rateLimit('submit')] as const,
  request: {
    params: z.object({
      site_id: z.string().openapi({ format: 'uuid', example: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a' }),
    }),
  },
  responses: {
    200: {
      content: { 'application/json': { schema: SiteDetail, example: WITHDRAWN_EXAMPLE } },
      description: 'Withdrawn (now or by an earlier call): the site record, status rejected, with withdrawn_at',
    },
    404: errorContent('No submission with this id, or not yours (code not_found)'),
    409: errorContent('The submission is not live (code invalid_state; the message names its status and why)'),
    ...keyedErrors,
    429: errorContent('Rate limit exceeded (code rate_limited); see Retry-After'),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  withdrawnEvent.register(app);
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    const deps = c.get('deps');
    const record = await withdrawSite({ deps, actor, input: { site_id: c.req.valid('param').site_id } });
    deps.defer(announceWebhookEvents(deps));
    return c.json(record, 200);
  });
}
