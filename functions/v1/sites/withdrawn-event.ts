// The `site.withdrawn` webhook event in openapi.json (OpenAPI 3.1 `webhooks`): what an endpoint subscribed to it
// receives when its account withdraws a listing (written by the outbox trigger, drizzle/*_withdrawal_and_slug_history.sql).
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../types';
import { isoTimestampSchema } from '../../../src/timestamp-schemas';

const WithdrawnEvent = z
  .object({
    id: z.string().openapi({
      description: 'The event id; the same on every retry and for every endpoint (deduplicate on it)',
      example: 'evt_9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f',
    }),
    type: z.literal('site.withdrawn'),
    created: isoTimestampSchema('When the listing was withdrawn', '2026-11-24T09:30:00.000Z'),
    data: z.object({
      site_id: z.string().openapi({ format: 'uuid', example: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a' }),
      name: z.string().openapi({ example: 'Acme Writer' }),
      url: z.string().openapi({ example: 'https://acme-writer.example/' }),
      status: z.literal('rejected'),
      previous_status: z.literal('live'),
      reason: z.literal('withdrawn by its owner'),
      withdrawn_at: isoTimestampSchema(
        "When the listing was withdrawn (the site record's withdrawn_at)",
        '2026-11-24T09:30:00.000Z',
      ),
    }),
  })
  .openapi('SiteWithdrawnEvent');

export function register(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'site.withdrawn',
    operationId: 'siteWithdrawnEvent',
    tags: ['Webhooks'],
    // We call the receiver; it checks Tooldir-Signature, not a credential of ours (an empty requirement says so).
    security: [],
    summary: 'A listing was withdrawn by its owner',
    description:
      'Sent to every endpoint of the account that subscribed to `site.withdrawn` when one of its live listings is withdrawn ' +
      '(DELETE /api/v1/sites/{site_id}, MCP withdraw_site, `tooldir withdraw`, the submission page). The same change is also ' +
      'a `site.status_changed` event (live → rejected). Signed with `Tooldir-Signature` like every event.',
    request: {
      headers: z.object({
        'Tooldir-Signature': z
          .string()
          .openapi({ example: 't=1795939800,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd' }),
        'Tooldir-Event-Id': z.string().openapi({ example: 'evt_9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f' }),
      }),
      body: { required: true, content: { 'application/json': { schema: WithdrawnEvent } } },
    },
    responses: { 200: { description: 'Any 2xx within 10 s acknowledges the event; anything else is retried' } },
  });
}
