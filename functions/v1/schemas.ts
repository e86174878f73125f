import { z } from '@hono/zod-openapi';
import { siteStatuses } from '../../src/db/schema';
import { planNames } from '../../src/submissions/plans';
import { crawlFailureKinds } from '../../src/pipeline/crawler/crawl-result';
import { submitInputSchema } from '../../src/submissions/submit-input';

// Response and request schemas of the REST contract; openapi.json is generated from them.

export const SubmitRequest = submitInputSchema
  .extend({
    name: submitInputSchema.shape.name.openapi({ description: 'Tool display name, 2 to 100 characters', example: 'Acme Writer' }),
    url: submitInputSchema.shape.url.openapi({ description: 'Tool website URL (http or https)', example: 'https://acme-writer.example' }),
    email: submitInputSchema.shape.email.openapi({ description: "Contact for review notifications; defaults to the account's e-mail" }),
    plan: submitInputSchema.shape.plan.openapi({ description: '`pro` and `sponsored` are the same plan', example: 'basic' }),
    categories: submitInputSchema.shape.categories.openapi({
      description: 'Optional: up to 3 distinct category slugs from GET /api/v1/categories; an unknown slug is a 400 that names it. Editors may change them at review',
      example: ['writing', 'productivity'],
    }),
  })
  .openapi('SubmitRequest');

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'invalid_request' }),
      message: z.string().openapi({ example: 'name must be 2 to 100 characters' }),
      site_id: z.uuid().optional().openapi({ description: "On 409 only, when the existing submission is the caller's" }),
    }),
  })
  .openapi('Error');

export const QueuedResponse = z
  .object({
    site_id: z.uuid(),
    status: z.literal('queued'),
    via: z.literal('membership'),
    quota: z.object({ used_today: z.number().int(), daily_limit: z.number().int() }),
  })
  .openapi('QueuedResponse');

export const PendingPaymentRecord = z
  .object({
    site_id: z.uuid().openapi({ description: 'Stays the same after payment' }),
    name: z.string(),
    url: z.string(),
    status: z.literal('pending_payment'),
    plan: z.enum(planNames),
    checkout_url: z.url().openapi({ description: 'Hosted checkout link; open it in a browser. Expires after 24 hours' }),
    expires_at: z.string().openapi({ format: 'date-time', example: '2026-11-22T21:05:03.000Z' }),
    submitted_at: z.string().openapi({ format: 'date-time', example: '2026-11-21T21:05:03.000Z' }),
    reason: z.enum(['no_membership', 'quota_exceeded', 'plan_not_covered', 'payment_pending']),
  })
  .openapi('PendingPaymentRecord');

/** Why a crawl failed, as submitters are told it (src/pipeline/crawl-error-messages.ts). */
export const CrawlError = z
  .object({
    code: z.enum(crawlFailureKinds).openapi({
      description:
        'The kind of failure: blocked_address (the address is not public), blocked_port, bad_url, dns_error, network_error, ' +
        'timeout, http_error, not_html, too_large, too_many_redirects, did_not_finish, crawler_error (ours)',
      example: 'http_error',
    }),
    message: z.string().openapi({ description: 'The kind in words; names no address of ours', example: 'the site answered HTTP 500' }),
  })
  .openapi('CrawlError');

export const SiteRecord = z
  .object({
    site_id: z.uuid(),
    name: z.string(),
    url: z.string(),
    status: z.enum(siteStatuses),
    is_feature: z.boolean(),
    is_sponsor: z.boolean(),
    submitted_at: z.string().openapi({ description: 'YYYY-MM-DD HH:MM:SS+00 (UTC)', example: '2026-11-21 21:05:03+00' }),
    live_url: z.url().optional().openapi({ description: 'Public tool page; present when status is live' }),
    rejection_reason: z
      .string()
      .optional()
      .openapi({ description: 'Only on a paid submission that could not be applied and was refunded (status rejected)' }),
    crawl_error: CrawlError.optional().openapi({ description: 'Only when status is crawl_failed: why the crawl failed' }),
  })
  .openapi('SiteRecord');

export const ListEnvelope = z
  .object({
    sites: z.array(SiteRecord),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('SiteList');

const errorContent = (description: string) => ({ content: { 'application/json': { schema: ErrorBody } }, description });

/** Error responses every keyed endpoint can give. */
export const keyedErrors = {
  401: errorContent('Missing, invalid or revoked API key (code unauthorized)'),
  429: errorContent('Rate limit exceeded (code rate_limited); see Retry-After'),
  500: errorContent('Unexpected failure (code internal_error)'),
  503: errorContent('Temporarily unavailable (code service_unavailable); retry'),
};

export { errorContent };

export const bearerSecurity = [{ apiKey: [] as string[] }];
