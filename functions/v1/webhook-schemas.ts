import { isoTimestampSchema } from '../../src/timestamp-schemas';
import { z } from '@hono/zod-openapi';
import { MAX_WEBHOOKS_PER_ACCOUNT, webhookEventTypes } from '../../src/webhooks/webhook-record';
import { WEBHOOK_URL_MAX_LENGTH } from '../../src/webhooks/target';

// Schemas of /api/v1/webhooks (docs/webhooks.md); openapi.json is generated from them.

export const WebhookIdParam = z.object({
  // A malformed id is a 404 like any unknown id, so the parameter is only typed, not constrained.
  webhook_id: z.string().openapi({ format: 'uuid', example: '0b6f3a52-3c1e-4b7e-9d55-6a3c2f9e1d20' }),
});

export const CreateWebhookRequest = z
  .object({
    url: z
      .string({ error: 'url is required and must be a string' })
      .trim()
      .min(1, { error: 'url is required' })
      .max(WEBHOOK_URL_MAX_LENGTH, { error: `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` })
      .openapi({
        description: 'Where events are POSTed: https, a public address, port 443 (or 80). Redirects are not followed.',
        example: 'https://hooks.acme-writer.example/tooldir',
      }),
    events: z
      .array(z.enum(webhookEventTypes, { error: `events may contain only: ${webhookEventTypes.join(', ')}` }), {
        error: 'events must be an array of event types',
      })
      .min(1, { error: 'events must name at least one event type' })
      .max(10, { error: 'events must name at most 10 event types' })
      .optional()
      .openapi({
        description: 'Event types to receive; default all. A test ping reaches every endpoint.',
        example: ['site.status_changed'],
      }),
  })
  .openapi('CreateWebhookRequest');

export const Webhook = z
  .object({
    webhook_id: z.uuid(),
    url: z.string().openapi({ example: 'https://hooks.acme-writer.example/tooldir' }),
    events: z.array(z.enum(webhookEventTypes)),
    created_at: isoTimestampSchema('When the endpoint was registered', '2026-11-23T12:00:00.000Z'),
  })
  .openapi('Webhook');

export const CreatedWebhook = Webhook.extend({
  secret: z.string().openapi({
    description: 'The signing secret (whsec_…). Shown only in this answer: store it to verify Tooldir-Signature.',
    example: 'whsec_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
  }),
}).openapi('CreatedWebhook');

export const WebhookList = z
  .object({ data: z.array(Webhook).openapi({ description: `At most ${MAX_WEBHOOKS_PER_ACCOUNT}, oldest first` }) })
  .openapi('WebhookList');

export const DeliveryAttempt = z
  .object({
    event_id: z.string().openapi({ example: 'evt_5f0c8e7a1b2d4c3e9f8a7b6c5d4e3f2a' }),
    event_type: z.string().openapi({ example: 'site.status_changed' }),
    attempt: z.number().int().openapi({ description: '1 for the first try of this event', example: 1 }),
    status_code: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The receiver's HTTP status; null when it did not answer", example: 500 }),
    error: z
      .string()
      .nullable()
      .openapi({ description: 'Why the attempt failed when no status tells it (timeout, refused address, redirect)' }),
    succeeded: z.boolean().openapi({ description: 'A 2xx within 10 s' }),
    at: isoTimestampSchema('When the attempt was made'),
    next_retry_at: isoTimestampSchema(
      'When the next attempt is due; null after a success or the last attempt',
    ).nullable(),
  })
  .openapi('WebhookDeliveryAttempt');

export const DeliveryList = z
  .object({ data: z.array(DeliveryAttempt).openapi({ description: 'The 100 most recent attempts, newest first' }) })
  .openapi('WebhookDeliveryList');

export const QueuedPing = z
  .object({
    webhook_id: z.uuid(),
    event_id: z
      .string()
      .openapi({
        description: 'The ping event; its attempts appear under deliveries',
        example: 'evt_0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      }),
    created: isoTimestampSchema('When the ping event was made (its `created` in the delivered body)'),
  })
  .openapi('QueuedPing');
