// POST /api/v1/submit-site (and POST /api/v1/sites) – submit a tool
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { submitSiteIdempotently } from '../../../src/idempotency/submit';
import { requireApiKey } from '../../middleware/api-key-auth';
import { jsonObjectBody } from '../../middleware/json-body';
import { rateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import {
  idempotencyErrors,
  idempotencyInProgress,
  idempotencyKeyHeader,
  idempotencyKeyParameter,
  idempotentReplayedHeader,
  markReplayed,
} from '../idempotency';
import { PendingPaymentRecord, QueuedResponse, SubmitRequest, bearerSecurity } from '../schemas';
import { ErrorBody, errorContent, keyedErrors } from '../error-responses';
import { BODY_LIMIT_TEXT } from '../../../src/body-limit';
import { urlNotices } from '../../../src/submissions/url';

const routeFor = (path: '/api/v1/submit-site' | '/api/v1/sites') =>
  createRoute({
    method: 'post',
    path,
    operationId: path === '/api/v1/sites' ? 'createSite' : 'submitSite',
    tags: ['Submissions'],
    summary: path === '/api/v1/sites' ? 'Submit a tool (alias of /submit-site)' : 'Submit a tool',
    description:
      'Members with an active membership, remaining daily quota and a covered plan are queued at once (201). ' +
      'Anyone else gets a pending-payment record with a hosted checkout link (402, not an error). ' +
      'Re-submitting an unpaid URL replaces its pending record with a fresh link (same site_id).',
    security: bearerSecurity,
    middleware: [requireApiKey, jsonObjectBody, idempotencyKeyHeader, rateLimit('submit')] as const,
    parameters: [idempotencyKeyParameter],
    request: { body: { required: true, content: { 'application/json': { schema: SubmitRequest } } } },
    responses: {
      201: {
        content: { 'application/json': { schema: QueuedResponse } },
        description: 'Queued (membership)',
        headers: idempotentReplayedHeader,
      },
      400: errorContent('Invalid body (codes invalid_request, invalid_json)'),
      402: {
        content: { 'application/json': { schema: PendingPaymentRecord } },
        description: 'Payment required: open checkout_url',
        headers: idempotentReplayedHeader,
      },
      409: {
        content: { 'application/json': { schema: ErrorBody } },
        description: `URL or name already submitted (code already_submitted), ${idempotencyInProgress}`,
        headers: idempotentReplayedHeader,
      },
      413: errorContent(`Body larger than ${BODY_LIMIT_TEXT}`),
      ...idempotencyErrors,
      ...keyedErrors,
      500: errorContent('plan_unavailable, checkout_failed or internal_error'),
    },
  });

export function register(app: OpenAPIHono<AppEnv>) {
  for (const path of ['/api/v1/submit-site', '/api/v1/sites'] as const) {
    app.openapi(routeFor(path), async (c) => {
      const result = await submitSiteIdempotently({
        deps: c.get('deps'),
        actor: c.get('actor'),
        input: c.req.valid('json'),
        idempotencyKey: c.get('idempotencyKey'),
        onReplay: markReplayed(c),
      });
      // What was read otherwise than sent (a bare host got https://), from the body as sent (cached by the validator).
      const notices = urlNotices(((await c.req.json()) as { url?: unknown }).url);
      const body = notices.length ? { ...result.body, notices } : result.body;
      return result.kind === 'queued'
        ? c.json(body as typeof result.body, 201)
        : c.json(body as typeof result.body, 402);
    });
  }
}
