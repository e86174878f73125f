// POST /api/v1/domains – add a domain to prove
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../../src/rate-limits/describe';
import { addDomain } from '../../../src/domains/domains';
import { requireApiKey } from '../../middleware/api-key-auth';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';
import { AddDomainRequest, DomainRecord } from './schemas';

const route = createRoute({
  method: 'post',
  path: '/api/v1/domains',
  operationId: 'addDomain',
  tags: ['Domains'],
  summary: 'Add a domain to prove',
  description:
    'Adds the registrable domain of `domain` (by the Public Suffix List, private section included: `docs.alice.github.io` ' +
    'adds `alice.github.io`) to your account with a token of its own, and answers the three ways to prove it with the ' +
    'values to copy. Adding a domain you hold answers it again (200). Several accounts may hold one domain. A public ' +
    `suffix (\`co.uk\`, \`github.io\`) or an IP address is a 400. ${describePolicy('domainChanges')}.`,
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: {
    body: {
      content: { 'application/json': { schema: AddDomainRequest, example: { domain: 'example.com' } } },
      required: true,
    },
  },
  responses: {
    201: {
      content: { 'application/json': { schema: DomainRecord } },
      description: 'Added: status pending, with its token and methods',
    },
    200: {
      content: { 'application/json': { schema: DomainRecord } },
      description: 'You already hold this domain: its record',
    },
    400: errorContent('Not a domain, a public suffix, or an IP address (code invalid_request)'),
    409: errorContent('You hold the most domains an account may (code conflict)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'domainChanges', actor.accountId);
    const { record, created } = await addDomain({ deps: c.get('deps'), actor, input: c.req.valid('json') });
    return c.json(record, created ? 201 : 200);
  });
}
