// GET /api/v1/admin/disputes – open claim disputes; POST /api/v1/admin/disputes/{claim_id}/decision – the operator's decision
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { decideDispute, disputeDecisions } from '../../src/claims/decide-dispute';
import { listOpenDisputes } from '../../src/claims/disputes';
import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { requireOperator } from '../middleware/operator-auth';
import { jsonObjectBody } from '../middleware/json-body';
import { errorContent } from '../v1/error-responses';
import type { AppEnv } from '../types';

const security = [{ operatorToken: [] as string[] }];
const claimId = z.uuid().openapi({ example: '5f0c6f0e-3c1a-4d8e-9a55-0b1f2c3d4e5f' });
const siteId = z.uuid().openapi({ example: '9b2e4c1d-7a35-4f60-8e21-3d4c5b6a7f80' });

const OpenDispute = z
  .object({
    claim_id: claimId.openapi({ description: 'The dispute id: the decision is posted to it' }),
    site_id: siteId,
    name: z.string().openapi({ example: 'Acme Writer' }),
    url: z.string().openapi({ example: 'https://acme.example/' }),
    status: z.string().openapi({ description: "The listing's status", example: 'live' }),
    domain: z.string().openapi({ description: 'The registrable domain both accounts proved', example: 'acme.example' }),
    owner_email: z.string().openapi({ description: "The listing's owner", example: 'founder@acme.example' }),
    claimant_email: z.string().openapi({ description: 'The account that claimed it', example: 'cto@acme.example' }),
    at: isoTimestampSchema('When the claim was made', '2026-11-27T10:15:00.000Z'),
  })
  .openapi('OpenDispute');

const DisputeDecision = z
  .object({
    decision: z.enum(disputeDecisions, { error: 'decision must be award or keep' }).openapi({
      description: 'award: give the listing to the claimant (moved as a claim moves it); keep: it stays with its owner',
      example: 'award',
    }),
  })
  .openapi('DisputeDecision');

const DecidedDispute = z
  .object({
    claim_id: claimId,
    site_id: siteId,
    domain: z.string().openapi({ example: 'acme.example' }),
    outcome: z.enum(['awarded', 'kept']).openapi({ description: 'What was decided', example: 'awarded' }),
    owner_account_id: z.uuid().openapi({ description: "The listing's owner now" }),
    claimant_account_id: z.uuid(),
    settled_at: isoTimestampSchema('When the operator decided', '2026-11-28T05:30:00.000Z'),
  })
  .openapi('DecidedDispute');

const listRoute = createRoute({
  method: 'get',
  path: '/api/v1/admin/disputes',
  operationId: 'listDisputes',
  tags: ['Operator'],
  summary: 'Open claim disputes, oldest first (both accounts proved the listing’s domain)',
  security,
  middleware: [requireOperator] as const,
  responses: {
    200: {
      content: { 'application/json': { schema: z.object({ disputes: z.array(OpenDispute) }) } },
      description: 'At most 100 open disputes',
    },
    401: errorContent('Wrong or missing operator token'),
    429: errorContent('Rate limited'),
  },
});

const decideRoute = createRoute({
  method: 'post',
  path: '/api/v1/admin/disputes/{claim_id}/decision',
  operationId: 'decideDispute',
  tags: ['Operator'],
  summary: 'Give a disputed listing to the claimant, or keep it with its owner',
  description:
    'award moves the listing as a claim does (history entry claimed, the previous owner mailed, site.claimed to both ' +
    "accounts' endpoints, what was paid stays with the listing) and mails the claimant; keep closes the dispute and mails " +
    'the claimant. A dispute is decided once: a second decision, concurrent or later, gets 409 conflict and changes nothing.',
  security,
  middleware: [requireOperator, jsonObjectBody] as const,
  request: {
    params: z.object({
      claim_id: z.string().openapi({ description: 'The dispute id (claim_id of GET /api/v1/admin/disputes)' }),
    }),
    body: { required: true, content: { 'application/json': { schema: DisputeDecision } } },
  },
  responses: {
    200: { content: { 'application/json': { schema: DecidedDispute } }, description: 'The decided dispute' },
    400: errorContent('Invalid body'),
    401: errorContent('Wrong or missing operator token'),
    404: errorContent('No such dispute'),
    409: errorContent('Already decided, or (award) the listing changed owner since the claim (code conflict)'),
    429: errorContent('Rate limited'),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(listRoute, async (c) => c.json({ disputes: await listOpenDisputes(c.get('deps')) }, 200));
  app.openapi(decideRoute, async (c) => {
    const decided = await decideDispute({
      deps: c.get('deps'),
      input: { claim_id: c.req.valid('param').claim_id, decision: c.req.valid('json').decision },
    });
    return c.json(decided, 200);
  });
}
