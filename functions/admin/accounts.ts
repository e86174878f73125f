// Operator API: accounts, API keys and memberships (bearer ADMIN_TOKEN)
import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { createAccount, setMembershipByOperator } from '../../src/accounts/accounts';
import { MAX_ACTIVE_KEYS, createApiKey, revokeApiKey } from '../../src/accounts/api-keys';
import { isUuid } from '../../src/ids';
import { ServiceError } from '../../src/errors';
import { requireOperator } from '../middleware/operator-auth';
import { jsonObjectBody } from '../middleware/json-body';
import { errorContent } from '../v1/error-responses';
import type { AppEnv } from '../types';
import { tierNames } from '../../src/catalog/plans';
import { isPrintable } from '../../src/printable-text';

const tier = z.enum(tierNames, { error: `tier must be one of ${tierNames.join(', ')}` });
const security = [{ operatorToken: [] as string[] }];
const errors = {
  400: errorContent('Invalid body'),
  401: errorContent('Wrong or missing operator token'),
  429: errorContent('Rate limited'),
};
const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
const accountIdParam = z.object({ account_id: z.string() });
const keyName = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, { error: 'name must be 1 to 100 characters' })
  .max(100, { error: 'name must be 1 to 100 characters' })
  .refine((v) => isPrintable(v), { error: 'name must be printable, well-formed text' });
const periodEnd = z.iso.datetime({ offset: true, error: 'current_period_end must be an ISO 8601 date-time' }).refine(
  (v) => {
    const year = new Date(v).getUTCFullYear();
    return year >= 1970 && year <= 9999;
  },
  { error: 'current_period_end must be between 1970 and 9999' },
);

const Account = z
  .object({
    account_id: z.uuid(),
    email: z.email(),
    tier,
    membership_status: z.string(),
    current_period_end: isoTimestampSchema('When the membership period ends; null without one').nullable(),
  })
  .openapi('Account');

const createAccountRoute = createRoute({
  method: 'post',
  path: '/api/v1/admin/accounts',
  operationId: 'createAccount',
  tags: ['Operator'],
  summary: 'Create an account',
  security,
  middleware: [requireOperator, jsonObjectBody] as const,
  request: {
    body: {
      required: true,
      ...json(
        z.object({ email: z.email({ error: 'email must be a valid e-mail address' }).max(254), tier: tier.optional() }),
      ),
    },
  },
  responses: {
    201: { ...json(Account), description: 'Created' },
    409: errorContent('E-mail already registered'),
    ...errors,
  },
});

const createKeyRoute = createRoute({
  method: 'post',
  path: '/api/v1/admin/accounts/{account_id}/keys',
  operationId: 'issueApiKey',
  tags: ['Operator'],
  summary: 'Issue an API key (shown only in this response)',
  security,
  middleware: [requireOperator] as const,
  request: {
    params: accountIdParam,
    body: { required: false, ...json(z.object({ name: keyName.optional() })) },
  },
  responses: {
    201: {
      ...json(z.object({ key_id: z.uuid(), key: z.string(), prefix: z.string(), name: z.string() })),
      description: 'The key',
    },
    404: errorContent('No such account'),
    409: errorContent(`The account already has ${MAX_ACTIVE_KEYS} active keys (code conflict); revoke one first`),
    ...errors,
  },
});

const revokeKeyRoute = createRoute({
  method: 'delete',
  path: '/api/v1/admin/keys/{key_id}',
  operationId: 'revokeApiKey',
  tags: ['Operator'],
  summary: 'Revoke an API key',
  security,
  middleware: [requireOperator] as const,
  request: { params: z.object({ key_id: z.string() }) },
  responses: { 204: { description: 'Revoked' }, 404: errorContent('No such key'), ...errors },
});

const membershipRoute = createRoute({
  method: 'put',
  path: '/api/v1/admin/accounts/{account_id}/membership',
  operationId: 'setMembership',
  tags: ['Operator'],
  summary: "Set an account's membership",
  security,
  middleware: [requireOperator, jsonObjectBody] as const,
  request: {
    params: accountIdParam,
    body: {
      required: true,
      ...json(
        z.object({
          tier,
          status: z
            .enum(['active', 'trialing', 'past_due', 'canceled', 'none'], {
              error: 'status must be one of active, trialing, past_due, canceled, none',
            })
            .optional(),
          current_period_end: periodEnd.nullable().optional(),
        }),
      ),
    },
  },
  responses: { 200: { ...json(Account), description: 'Updated' }, 404: errorContent('No such account'), ...errors },
});

const accountNotFound = () => new ServiceError('not_found', 'No account with this id.');

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(createAccountRoute, async (c) => c.json(await createAccount(c.get('deps'), c.req.valid('json')), 201));

  app.openapi(createKeyRoute, async (c) => {
    const { account_id } = c.req.valid('param');
    if (!isUuid(account_id)) throw accountNotFound();
    const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : {};
    return c.json(await createApiKey(c.get('deps'), account_id, body?.name), 201);
  });

  app.openapi(revokeKeyRoute, async (c) => {
    const { key_id } = c.req.valid('param');
    if (!isUuid(key_id) || !(await revokeApiKey(c.get('deps'), key_id))) {
      throw new ServiceError('not_found', 'No API key with this id.');
    }
    return c.body(null, 204);
  });

  app.openapi(membershipRoute, async (c) => {
    const { account_id } = c.req.valid('param');
    if (!isUuid(account_id)) throw accountNotFound();
    return c.json(await setMembershipByOperator(c.get('deps'), account_id, c.req.valid('json')), 200);
  });
}
