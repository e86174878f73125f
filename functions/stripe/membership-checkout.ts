// POST /api/v1/membership/checkout – a checkout link that buys the caller's account a membership
import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { createMembershipCheckout } from '../../src/payments/membership-checkout';
import { requireApiKey } from '../middleware/api-key-auth';
import { jsonObjectBody } from '../middleware/json-body';
import { enforceRateLimit } from '../middleware/rate-limit';
import { describePolicy } from '../../src/rate-limits/describe';
import type { AppEnv } from '../types';
import { bearerSecurity } from '../v1/schemas';
import { errorContent, keyedErrors } from '../v1/error-responses';
import { membershipTiers } from '../../src/catalog/plans';
import { tierCoverageText, upgradeText } from '../../src/submissions/plan-words';

const MembershipCheckout = z
  .object({
    checkout_url: z
      .url()
      .openapi({ description: 'Hosted checkout link for the membership subscription. Open it in a browser.' }),
    expires_at: isoTimestampSchema('When the checkout link expires', '2026-11-22T21:05:03.000Z'),
    tier: z.enum(membershipTiers),
  })
  .openapi('MembershipCheckout');

const route = createRoute({
  method: 'post',
  path: '/api/v1/membership/checkout',
  operationId: 'createMembershipCheckout',
  tags: ['Membership'],
  summary: 'Buy a membership',
  description:
    `Returns a hosted checkout link for a monthly membership of the given tier (${tierCoverageText()}). ` +
    `The membership becomes active once the payment completes; ${upgradeText()} (the old subscription is ` +
    "then cancelled with its unused time credited). With Stripe the link is a Checkout Session for the tier's configured Price (a tier without " +
    "one is 500 plan_unavailable); without Stripe it is this server's local checkout page, which charges the listed monthly price. " +
    `Limited to ${describePolicy('membershipCheckout')}.`,
  security: bearerSecurity,
  middleware: [requireApiKey, jsonObjectBody] as const,
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            tier: z
              .enum(membershipTiers, { error: `tier must be ${membershipTiers.join(' or ')}` })
              .openapi({ example: membershipTiers[0] }),
          }),
        },
      },
    },
  },
  responses: {
    ...keyedErrors,
    200: { content: { 'application/json': { schema: MembershipCheckout } }, description: 'The checkout link' },
    400: errorContent('Invalid body (codes invalid_request, invalid_json)'),
    500: errorContent(
      'No Price configured for the tier in Stripe mode (plan_unavailable), checkout creation failed (checkout_failed)',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    // Creating a provider session is a write with its own per-account policy.
    await enforceRateLimit(c, 'membershipCheckout', actor.accountId);
    return c.json(
      await createMembershipCheckout({ deps: c.get('deps'), actor, input: { tier: c.req.valid('json').tier } }),
      200,
    );
  });
}
