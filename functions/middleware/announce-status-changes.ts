import type { MiddlewareHandler } from 'hono';
import { announceWebhookEvents } from '../../src/webhooks/announce';
import type { AppEnv } from '../types';

/**
 * After a request that can change a submission's status outside the job steps (an editor's decision, a Stripe
 * event, the local checkout), enqueue the webhook outbox rows its statements wrote, off the response path
 * (docs/webhooks.md "Where events come from"). Job steps do the same in src/jobs/run-job.ts.
 */
export const announceStatusChanges: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method !== 'POST' || c.get('announceStatusChanges') === false) return;
  const deps = c.get('deps');
  deps.defer(announceWebhookEvents(deps));
};

/** The paths whose POSTs can move a submission (src/pipeline/reject.ts, publish.ts; src/payments/*). */
export const STATUS_CHANGING_PATHS = [
  '/api/v1/admin/sites/*',
  '/admin/sites/*',
  '/api/webhooks/stripe',
  '/checkout/*',
] as const;
