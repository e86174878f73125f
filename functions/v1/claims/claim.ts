// POST /api/v1/claims – take over the listing of a URL on a domain you proved
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../../src/rate-limits/describe';
import { claimSite } from '../../../src/claims/claim-site';
import { claimInputSchema } from '../../../src/claims/claim-input';
import { requireApiKey } from '../../middleware/api-key-auth';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { SiteDetail, bearerSecurity, component } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';

const ClaimRequest = component(claimInputSchema, 'ClaimRequest');

const route = createRoute({
  method: 'post',
  path: '/api/v1/claims',
  operationId: 'claimSite',
  tags: ['Claims'],
  summary: 'Claim the listing of a URL on your verified domain',
  description:
    'Moves the listing of `url` (any status) from the account that submitted it into yours, when you hold a verified ' +
    'proof of its registrable domain (POST /api/v1/domains). The previous account is mailed and can no longer edit it, ' +
    'retry it or see its statistics; what was paid stays with the listing; its history gains a `claimed` entry and a ' +
    `\`site.claimed\` event goes to both accounts' webhooks. ${describePolicy('domainChanges')}.`,
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: {
    body: {
      content: { 'application/json': { schema: ClaimRequest, example: { url: 'https://acme-writer.example.com/' } } },
      required: true,
    },
  },
  responses: {
    200: {
      content: { 'application/json': { schema: SiteDetail } },
      description: 'Claimed: the site record, now in your account',
    },
    400: errorContent('Not an http(s) URL, or a URL with no registrable domain (code invalid_request)'),
    403: errorContent('You hold no verified proof of the domain (code domain_not_verified)'),
    404: errorContent('No listing has this URL (code not_found)'),
    409: errorContent(
      'The listing is yours already (code conflict), or its owner proved the domain too: an operator decides (code claim_disputed)',
    ),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'domainChanges', actor.accountId);
    return c.json(await claimSite({ deps: c.get('deps'), actor, input: c.req.valid('json') }), 200);
  });
}
