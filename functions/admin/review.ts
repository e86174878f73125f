// POST /api/v1/admin/sites/{site_id}/review – an editor's decision; GET /api/v1/admin/sites/{site_id} – the operator's view
import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { decideReview } from '../../src/pipeline/decide-review';
import { getOperatorSite } from '../../src/pipeline/operator-site';
import { isUuid } from '../../src/ids';
import { ServiceError } from '../../src/errors';
import { toolCategoriesSchema } from '../../src/categories/category-rules';
import { requireOperator } from '../middleware/operator-auth';
import { jsonObjectBody } from '../middleware/json-body';
import { SiteRecord } from '../v1/schemas';
import { errorContent } from '../v1/error-responses';
import type { AppEnv } from '../types';

const security = [{ operatorToken: [] as string[] }];
const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
const params = z.object({ site_id: z.string().openapi({ description: 'The site id (UUID)' }) });
const errors = {
  401: errorContent('Wrong or missing operator token'),
  404: errorContent('No such site'),
  429: errorContent('Rate limited'),
};

const ReviewDecision = z
  .object({
    decision: z
      .enum(['approve', 'reject'], { error: 'decision must be approve or reject' })
      .openapi({ example: 'approve' }),
    reason: z
      .string()
      .trim()
      .max(1000, { error: 'reason must be at most 1000 characters' })
      .optional()
      .openapi({ description: 'Stored and mailed to the submitter' }),
    categories: toolCategoriesSchema.optional().openapi({
      description:
        "Replaces the tool's categories: up to 3 distinct slugs from GET /api/v1/categories ([] removes them all; omit to keep the submitter's). An unknown slug is a 400 naming it, and then nothing changes",
      example: ['writing', 'productivity'],
    }),
  })
  .openapi('ReviewDecision');

const OperatorSite = z
  .object({
    site: SiteRecord,
    pipeline: z.object({
      crawl_attempts: z.number().int(),
      crawl_error: z
        .string()
        .nullable()
        .openapi({
          description:
            "The last crawl failure's full detail (addresses, host names, exception text), for operators only",
        }),
      crawl_error_kind: z
        .string()
        .nullable()
        .openapi({
          description: "The last crawl failure's kind (the submitter sees it as the site record's crawl_error)",
        }),
      crawl_error_http_status: z
        .number()
        .int()
        .nullable()
        .openapi({ description: 'The HTTP status, when the kind is http_error' }),
      metadata: z
        .record(z.string(), z.string().nullable())
        .nullable()
        .openapi({ description: 'Crawled title, description, image, icon, canonical, finalUrl, language' }),
      review_checks: z
        .record(z.string(), z.unknown())
        .nullable()
        .openapi({ description: 'Automatic review checks: {passed, checks: [{name, passed, detail}]}' }),
      review_reason: z.string().nullable(),
      slug: z.string().nullable(),
    }),
    history: z.array(
      z.object({
        from_status: z.string().nullable(),
        to_status: z.string(),
        note: z.string().nullable(),
        at: isoTimestampSchema('When the status changed'),
      }),
    ),
  })
  .openapi('OperatorSite');

const reviewRoute = createRoute({
  method: 'post',
  path: '/api/v1/admin/sites/{site_id}/review',
  operationId: 'reviewSite',
  tags: ['Operator'],
  summary:
    'Approve (publish, or republish a taken-down tool) or reject (from pending_review, or take down a live tool)',
  security,
  middleware: [requireOperator, jsonObjectBody] as const,
  request: { params, body: { required: true, ...json(ReviewDecision) } },
  responses: {
    200: { ...json(SiteRecord), description: 'The updated site record' },
    400: errorContent('Invalid body, or an unknown category (code invalid_request)'),
    409: errorContent('The site is not in a state this decision applies to (code conflict)'),
    ...errors,
  },
});

const detailRoute = createRoute({
  method: 'get',
  path: '/api/v1/admin/sites/{site_id}',
  operationId: 'getOperatorSite',
  tags: ['Operator'],
  summary: 'A site with its pipeline data (crawl error, metadata, review checks) and status history',
  security,
  middleware: [requireOperator] as const,
  request: { params },
  responses: { 200: { ...json(OperatorSite), description: 'The operator view' }, ...errors },
});

const notFound = () => new ServiceError('not_found', 'No site with this id.');

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(reviewRoute, async (c) => {
    const { site_id } = c.req.valid('param');
    if (!isUuid(site_id)) throw notFound();
    return c.json(await decideReview(c.get('deps'), site_id, c.req.valid('json')), 200);
  });
  app.openapi(detailRoute, async (c) => {
    const { site_id } = c.req.valid('param');
    if (!isUuid(site_id)) throw notFound();
    return c.json(await getOperatorSite(c.get('deps'), site_id), 200);
  });
}
