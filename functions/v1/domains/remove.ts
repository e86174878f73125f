// DELETE /api/v1/domains/{domain} – remove a domain and its proof from the account
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { removeDomain } from '../../../src/domains/domains';
import { requireApiKey } from '../../middleware/api-key-auth';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';
import { DomainParam } from './schemas';

const route = createRoute({
  method: 'delete',
  path: '/api/v1/domains/{domain}',
  operationId: 'removeDomain',
  tags: ['Domains'],
  summary: 'Remove a domain',
  description:
    'Removes the domain and its proof from your account: your listings on it lose the "Verified maker" mark at once. Adding it again gives a new token.',
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: { params: DomainParam },
  responses: {
    204: { description: 'Removed' },
    400: errorContent('Not a domain (code invalid_request)'),
    404: errorContent('Not one of your domains (code not_found)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'domainChanges', actor.accountId);
    await removeDomain({ deps: c.get('deps'), actor, input: c.req.valid('param') });
    return c.body(null, 204);
  });
}
