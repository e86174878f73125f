// The `site.claimed` webhook event in openapi.json (OpenAPI 3.1 `webhooks`): what an endpoint subscribed to it receives
// when a listing moves by a claim or an operator's award (written in the move's own statement, src/claims/move-listing.ts).
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { isoTimestampSchema } from '../../../src/timestamp-schemas';
import { siteStatuses } from '../../../src/catalog/site-statuses';

const ClaimedEvent = z
  .object({
    id: z.string().openapi({
      description: 'The event id; the same on every retry and for every endpoint (deduplicate on it)',
      example: 'evt_4b7e0c2d9a1f4e3b8c6d5a2f1e0b9c8d',
    }),
    type: z.literal('site.claimed'),
    created: isoTimestampSchema('When the listing moved', '2026-11-25T10:15:00.000Z'),
    data: z.object({
      site_id: z.string().openapi({ format: 'uuid', example: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a' }),
      name: z.string().openapi({ example: 'Acme Writer' }),
      url: z.string().openapi({ example: 'https://acme-writer.example/' }),
      status: z.enum(siteStatuses).openapi({ example: 'live' }),
      live_url: z.string().nullable().openapi({ example: 'https://tooldir.example/tools/acme-writer' }),
      domain: z
        .string()
        .openapi({ description: 'The verified domain the claim rests on', example: 'acme-writer.example' }),
      claimed: z.boolean().openapi({
        description: 'true for the account that now holds the listing, false for the one that lost it',
        example: true,
      }),
    }),
  })
  .openapi('SiteClaimedEvent');

export function register(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'site.claimed',
    operationId: 'siteClaimedEvent',
    tags: ['Webhooks'],
    // We call the receiver; it checks Tooldir-Signature, not a credential of ours (an empty requirement says so).
    security: [],
    summary: 'A listing moved to the account that proved its domain',
    description:
      'Sent to the endpoints subscribed to `site.claimed` of both accounts when a listing moves by a claim ' +
      '(POST /api/v1/claims, MCP claim_site, `tooldir claim`, the Claim form) or by the operator settling a dispute. ' +
      '`claimed` says which side the receiving account is on. Signed with `Tooldir-Signature` like every event.',
    request: {
      headers: z.object({
        'Tooldir-Signature': z
          .string()
          .openapi({ example: 't=1796033700,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd' }),
        'Tooldir-Event-Id': z.string().openapi({ example: 'evt_4b7e0c2d9a1f4e3b8c6d5a2f1e0b9c8d' }),
      }),
      body: { required: true, content: { 'application/json': { schema: ClaimedEvent } } },
    },
    responses: { 200: { description: 'Any 2xx within 10 s acknowledges the event; anything else is retried' } },
  });
}
