// Operator API: an account's OAuth grants (connected apps), listed and revoked (bearer ADMIN_TOKEN)
import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { getAccount } from '../../src/accounts/accounts';
import { ServiceError } from '../../src/errors';
import { listGrants, revokeGrant } from '../../src/oauth/grants';
import { ALL_SCOPES } from '../../src/oauth/scopes';
import { requireOperator } from '../middleware/operator-auth';
import { errorContent } from '../v1/error-responses';
import type { AppEnv } from '../types';
import { isUuid } from '../../src/ids';
import { oauthClientKinds } from '../../src/catalog/oauth-client-kinds';

const security = [{ operatorToken: [] as string[] }];
const errors = {
  401: errorContent('Wrong or missing operator token'),
  404: errorContent('No such account or grant'),
  429: errorContent('Rate limited'),
};
const params = z.object({ account_id: z.string() });

const Grant = z
  .object({
    grant_id: z.uuid(),
    client_id: z
      .string()
      .openapi({ description: 'A registered client (tdcl_…) or the https URL of its metadata document' }),
    client_kind: z.enum(oauthClientKinds),
    client_name: z.string().nullable().openapi({ description: 'What the client calls itself (unverified)' }),
    redirect_uri: z.string(),
    scopes: z.array(z.enum(ALL_SCOPES as [string, ...string[]])),
    created_at: isoTimestampSchema('When the person allowed the app'),
    last_used_at: isoTimestampSchema('When one of its tokens was last used; null if never').nullable(),
    revoked_at: isoTimestampSchema('When the grant was revoked; null while it stands').nullable(),
  })
  .openapi('OAuthGrant');

const listRoute = createRoute({
  method: 'get',
  path: '/api/v1/admin/accounts/{account_id}/oauth-grants',
  operationId: 'listOAuthGrants',
  tags: ['Operator'],
  summary: "List an account's OAuth grants (connected apps), revoked ones included",
  security,
  middleware: [requireOperator] as const,
  request: { params },
  responses: {
    200: {
      content: { 'application/json': { schema: z.object({ grants: z.array(Grant) }) } },
      description: 'Newest first',
    },
    ...errors,
  },
});

const revokeRoute = createRoute({
  method: 'delete',
  path: '/api/v1/admin/accounts/{account_id}/oauth-grants/{grant_id}',
  operationId: 'revokeOAuthGrant',
  tags: ['Operator'],
  summary: 'Revoke an OAuth grant: every access and refresh token it issued stops working at once',
  security,
  middleware: [requireOperator] as const,
  request: { params: params.extend({ grant_id: z.string() }) },
  responses: { 204: { description: 'Revoked (also when it already was)' }, ...errors },
});

const accountNotFound = () => new ServiceError('not_found', 'No account with this id.');

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(listRoute, async (c) => {
    const { account_id } = c.req.valid('param');
    if (!isUuid(account_id)) throw accountNotFound();
    const deps = c.get('deps');
    await getAccount(deps, account_id);
    return c.json({ grants: await listGrants(deps, account_id, { includeRevoked: true }) }, 200);
  });

  app.openapi(revokeRoute, async (c) => {
    const { account_id, grant_id } = c.req.valid('param');
    if (!isUuid(account_id) || !isUuid(grant_id) || !(await revokeGrant(c.get('deps'), account_id, grant_id))) {
      throw new ServiceError('not_found', 'No such grant on this account.');
    }
    return c.body(null, 204);
  });
}
