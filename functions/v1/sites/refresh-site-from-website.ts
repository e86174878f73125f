// POST /api/v1/sites/{site_id}/refresh – propose what the last check saw on the tool's site as an edit for review
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../../src/rate-limits/describe';
import { refreshFromSite } from '../../../src/health/refresh-from-site';
import { requireApiKey } from '../../middleware/api-key-auth';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { SiteRecord, bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';

const route = createRoute({
  method: 'post',
  path: '/api/v1/sites/{site_id}/refresh',
  operationId: 'refreshSiteFromWebsite',
  tags: ['Submissions'],
  summary: 'Refresh a listing from its website',
  description:
    "Files the description the last daily check found on your live tool's website as an edit for review, like " +
    'PATCH /api/v1/sites/{site_id}: the public page keeps its text until an editor approves. The site record says ' +
    `site_changed: true when there is something to refresh. No body. Counts against the submit bucket (${describePolicy('submit')}).`,
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
      description: 'Filed: the site record with its pending_edit',
    },
    404: errorContent('No submission with this id, or not yours (code not_found)'),
    409: errorContent(
      'Not live, not checked yet, or the site shows nothing other than the listing (code invalid_state)',
    ),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'submit', actor.accountId);
    const record = await refreshFromSite({
      deps: c.get('deps'),
      actor,
      input: { site_id: c.req.valid('param').site_id },
    });
    return c.json(record, 202);
  });
}
