// POST /api/v1/admin/edits/{edit_id}/review – an editor approves or rejects a submitter's edit of a live tool
import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { decideEdit } from '../../src/pipeline/decide-edit';
import { requireOperator } from '../middleware/operator-auth';
import { jsonObjectBody } from '../middleware/json-body';
import { errorContent } from '../v1/error-responses';
import type { AppEnv } from '../types';
import { editStatuses } from '../../src/catalog/site-statuses';

const EditReviewDecision = z
  .object({
    decision: z
      .enum(['approve', 'reject'], { error: 'decision must be approve or reject' })
      .openapi({ example: 'approve' }),
    reason: z
      .string({ error: 'reason must be a string' })
      .trim()
      .max(1000, { error: 'reason must be at most 1000 characters' })
      .optional()
      .openapi({ description: "Stored and shown to the submitter as the record's last_edit.reason" }),
  })
  .openapi('EditReviewDecision');

const SiteEdit = z
  .object({
    edit_id: z.uuid(),
    site_id: z.uuid(),
    status: z.enum(editStatuses),
    name: z.string().optional(),
    description: z.string().optional(),
    reason: z.string().optional(),
    submitted_at: isoTimestampSchema('When the edit was filed'),
    decided_at: isoTimestampSchema('When an editor decided; absent while pending').optional(),
  })
  .openapi('SiteEdit');

const route = createRoute({
  method: 'post',
  path: '/api/v1/admin/edits/{edit_id}/review',
  operationId: 'reviewEdit',
  tags: ['Operator'],
  summary: "Approve (apply to the live tool) or reject a submitter's edit",
  description:
    'Approve copies the proposed name and/or description onto the live tool in one statement, unless another tool ' +
    'took the name meanwhile (409 already_submitted; the edit stays pending, reject it). Of concurrent decisions on ' +
    'one edit, one wins; the others get 409 conflict.',
  security: [{ operatorToken: [] as string[] }],
  middleware: [requireOperator, jsonObjectBody] as const,
  request: {
    params: z.object({
      edit_id: z.string().openapi({ description: 'The edit id (UUID), from pending_edit.edit_id or /admin' }),
    }),
    body: { required: true, content: { 'application/json': { schema: EditReviewDecision } } },
  },
  responses: {
    200: { content: { 'application/json': { schema: SiteEdit } }, description: 'The decided edit' },
    400: errorContent('Invalid body'),
    401: errorContent('Wrong or missing operator token'),
    404: errorContent('No such edit'),
    409: errorContent(
      'Already decided or superseded (code conflict), the tool is no longer live (code invalid_state), or another tool holds the name (code already_submitted)',
    ),
    429: errorContent('Rate limited'),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const edit = await decideEdit({
      deps: c.get('deps'),
      input: { ...c.req.valid('json'), edit_id: c.req.valid('param').edit_id },
    });
    return c.json(edit, 200);
  });
}
