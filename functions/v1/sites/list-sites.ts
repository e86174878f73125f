// GET /api/v1/sites – list the caller's submissions, newest first
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { listSubmissions } from '../../../src/submissions/list';
import { canonicalUrl, readSubmittedUrl, storedUrl } from '../../../src/submissions/url';
import { requireApiKey } from '../../middleware/api-key-auth';
import { rateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { ListEnvelope, bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';

const integerParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { error: `${name} must be an integer from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `${name} must be an integer from ${min} to ${max}` });

const query = z.object({
  limit: integerParam('limit', 1, 100).optional().openapi({ type: 'integer', minimum: 1, maximum: 100, default: 100 }),
  offset: integerParam('offset', 0, 100_000_000).optional().openapi({ type: 'integer', minimum: 0, default: 0 }),
  url: z
    .string()
    .superRefine((value, ctx) => {
      const check = readSubmittedUrl(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    })
    .optional()
    .openapi({
      description: 'Only the submission with this URL (compared in canonical form)',
      example: 'https://acme-writer.example',
    }),
});

const route = createRoute({
  method: 'get',
  path: '/api/v1/sites',
  operationId: 'listSites',
  tags: ['Submissions'],
  summary: 'List your submissions',
  description:
    'Up to 100 of your submissions, newest first. Unpaid pending submissions are excluded; read them by id. ' +
    'Items carry no history or queue position: GET /api/v1/sites/{site_id} has those.',
  security: bearerSecurity,
  middleware: [requireApiKey, rateLimit('read')] as const,
  request: { query },
  responses: {
    200: { content: { 'application/json': { schema: ListEnvelope } }, description: 'The list envelope' },
    400: errorContent('Invalid limit, offset or url (code invalid_request)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    const q = c.req.valid('query');
    const envelope = await listSubmissions({
      deps: c.get('deps'),
      actor,
      input: {
        limit: q.limit ?? 100,
        offset: q.offset ?? 0,
        canonicalUrl: q.url === undefined ? undefined : canonicalUrl(new URL(storedUrl(q.url))),
      },
    });
    return c.json(envelope, 200);
  });
}
