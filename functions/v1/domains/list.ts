// GET /api/v1/domains – the account's domains and their proofs
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listDomains } from '../../../src/domains/domains';
import { requireApiKey } from '../../middleware/api-key-auth';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { bearerSecurity } from '../schemas';
import { keyedErrors } from '../error-responses';
import { DomainList } from './schemas';

const route = createRoute({
  method: 'get',
  path: '/api/v1/domains',
  operationId: 'listDomains',
  tags: ['Domains'],
  summary: 'List your domains',
  description:
    'Every domain your account holds, verified first, with its token, its proof and the values of each method.',
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  responses: {
    200: { content: { 'application/json': { schema: DomainList } }, description: 'Your domains' },
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'read', actor.accountId);
    return c.json(await listDomains({ deps: c.get('deps'), actor, input: {} }), 200);
  });
}
