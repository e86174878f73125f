import { healthSchema } from '../health-schema';
import { mcpOwnerSchema } from '../mcp-owner-schema';
import { z } from 'zod';
import { siteStatuses } from '../catalog/site-statuses';
import { crawlFailureKinds } from '../catalog/crawl-failure-kinds';
import { planNames } from '../catalog/plans';
import { lastEditSchema, pendingEditSchema } from './edit-record';
import { isoTimestampSchema, siteSubmittedAtSchema } from '../timestamp-schemas';
import { verifiedMarkSchema } from '../domains/verified-mark';

// The bodies a submission is read as (docs/contract.md, "Resources"), declared once.
// openapi.json names them (functions/v1/schemas.ts), the MCP tools declare them as outputSchema
// (functions/mcp/output-schemas.ts), the CLI reads its types from them (src/cli/api-types.ts), and the verbs
// return the types inferred here, so no surface can promise a field another one lacks.
// Descriptions and examples are plain zod metadata: openapi.json and MCP's tools/list both show them.

/** The listing's MCP endpoint as stored; only when it has one. */
const mcpUrlRecordSchema = z.string().optional().describe("The listing's MCP endpoint, when it has one");

/** A submission's id (a UUID); the same before and after payment. Not version-checked: ids are only ever ours. */
export const siteIdSchema = z.guid().describe('Id of the submission; stays the same after payment');

export const siteStatusSchema = z.enum(siteStatuses);

export const planSchema = z.enum(planNames);

/** Why a submission needs payment. Decided in src/submissions/rules.ts (decideSubmit). */
export const paymentReasons = ['no_membership', 'quota_exceeded', 'plan_not_covered', 'payment_pending'] as const;
export const paymentReasonSchema = z.enum(paymentReasons);
export type PaymentReason = z.infer<typeof paymentReasonSchema>;

/** Why a crawl failed, as submitters are told it (the words: src/crawler/crawl-error-messages.ts). */
export const crawlErrorSchema = z.object({
  code: z.enum(crawlFailureKinds).meta({
    description:
      'The kind of failure: blocked_address (the address is not public), blocked_port, bad_url, dns_error, network_error, ' +
      'timeout, http_error, not_html, too_large, too_many_redirects, did_not_finish, crawler_error (ours)',
    example: 'http_error',
  }),
  message: z
    .string()
    .meta({ description: 'The kind in words; names no address of ours', example: 'the site answered HTTP 500' }),
});
export type CrawlError = z.infer<typeof crawlErrorSchema>;

/** The refund of a paid submission rejected before it ever went live (docs/payments.md "Refund on rejection"). */
export const refundSchema = z
  .object({
    status: z.enum(['pending', 'refunded']).describe('pending: the refund is being made; refunded: Stripe made it'),
    refund_id: z
      .string()
      .optional()
      .meta({ description: "Stripe's refund id (re_…), once refunded", example: 're_3PzK2aLkdIwHu7ix0Yx1Zr9Q' }),
    amount: z
      .number()
      .int()
      .optional()
      .describe("What was refunded, in the currency's smallest unit (cents), once refunded"),
    currency: z
      .string()
      .optional()
      .meta({ description: 'Three-letter ISO code, lower case, once refunded', example: 'usd' }),
    refunded_at: isoTimestampSchema('When the refund was made', '2026-11-23T13:05:03.000Z').optional(),
  })
  .describe('Only on a paid submission an editor rejected before it ever went live, while REFUND_ON_REJECTION is on');
export type Refund = z.infer<typeof refundSchema>;

/** Site record (2.4): what detail reads and lists return for submissions past payment. */
export const siteRecordSchema = z.object({
  site_id: siteIdSchema,
  name: z.string(),
  url: z.string(),
  status: siteStatusSchema,
  is_feature: z.boolean(),
  is_sponsor: z.boolean(),
  submitted_at: siteSubmittedAtSchema,
  live_url: z.url().optional().describe('Public tool page; present when status is live'),
  rejection_reason: z
    .string()
    .optional()
    .describe(
      'Only when status is rejected for a reason of its own: a paid submission that could not be applied and was refunded ' +
        '(the reason in words), or a listing its owner withdrew ("withdrawn by its owner")',
    ),
  superseded: z
    .literal(true)
    .optional()
    .describe(
      "Only on an unpaid submission closed because the tool's maker (a verified owner of its domain) submitted the URL " +
        'themselves: it is not listed twice; rejection_reason says whether nothing was charged or a late payment was refunded',
    ),
  withdrawn_at: isoTimestampSchema(
    'Only on a listing its owner withdrew (DELETE /api/v1/sites/{site_id}): when',
    '2026-11-24T09:30:00.000Z',
  ).optional(),
  crawl_error: crawlErrorSchema.optional().describe('Only when status is crawl_failed: why the crawl failed'),
  crawled_url: z
    .string()
    .optional()
    .describe(
      'The address the crawler read the page from, after redirects, once a crawl succeeded: an http:// URL is tried over ' +
        'https first, and crawled over http only when its https form does not answer',
    ),
  refund: refundSchema.optional(),
  pending_edit: pendingEditSchema.optional(),
  last_edit: lastEditSchema.optional(),
  ...verifiedMarkSchema,
  health: healthSchema
    .optional()
    .describe('Once the tool has been live: what the daily re-check of its website last found (docs/health.md)'),
  site_changed: z
    .boolean()
    .optional()
    .describe(
      'Live tools: true when the last check saw a title, description or image other than the listing shows; POST /api/v1/sites/{site_id}/refresh proposes them as an edit',
    ),
  mcp_url: mcpUrlRecordSchema,
  mcp: mcpOwnerSchema.optional(),
});
export type SiteRecord = z.infer<typeof siteRecordSchema>;

/** One step of a submission's history (docs/submission-progress.md): a status it reached, when, and why where submitters are told why. */
export const historyStepSchema = z.object({
  status: z.union([siteStatusSchema, z.literal('pending_payment')]),
  at: isoTimestampSchema('When the status was reached'),
  reason: z
    .string()
    .optional()
    .describe(
      "Why, when it is meant for the submitter: a rejection's reason, a failed crawl attempt's message (names no address)",
    ),
  event: z
    .literal('claimed')
    .optional()
    .describe('claimed: the listing moved into this account by a claim (its status did not change)'),
});
export type HistoryStep = z.infer<typeof historyStepSchema>;

/** Where a submission waits (docs/submission-progress.md): present only while queued, crawling or pending_review. */
export const queuePositionSchema = z.object({
  stage: z.enum(['crawl', 'review']).describe('crawl: queued or crawling; review: pending_review'),
  position: z
    .number()
    .int()
    .min(1)
    .describe('1 = next in this stage; ordered by the time each submission entered the stage'),
  estimated_at: isoTimestampSchema(
    "When this submission is expected to leave the stage, from the stage's pace over the last 24 hours; left out without such data",
    '2026-11-21T21:35:00.000Z',
  ).optional(),
});
export type QueuePosition = z.infer<typeof queuePositionSchema>;

/** The detail read's site record: the site record plus its history and, while it waits, its queue position. */
export const siteDetailSchema = siteRecordSchema.extend({
  history: z
    .array(historyStepSchema)
    .describe(
      'Every status the submission reached, oldest first (a paid one starts with pending_payment). Detail reads only; the list leaves it out',
    ),
  queue: queuePositionSchema
    .optional()
    .describe('Only while queued, crawling or pending_review. Detail reads only; the list leaves it out'),
});
export type SiteDetailRecord = z.infer<typeof siteDetailSchema>;

/** What the service changed of a submit's input, in words for the person (docs/contract.md "Submit request"). */
export const submitNoticesSchema = z
  .array(z.string())
  .optional()
  .describe(
    'Only in the answer of a submit, and only when the service read the input otherwise than it was sent, in words to show the person: a url without a scheme (acme.com) got https:// added',
  );

/** Pending-payment record (2.3): the 402 body, and the detail read of an unpaid submission. */
export const pendingRecordSchema = z.object({
  site_id: siteIdSchema,
  name: z.string(),
  url: z.string(),
  status: z.literal('pending_payment'),
  plan: planSchema,
  checkout_url: z.url().describe('Hosted checkout link; open it in a browser. Expires after 24 hours'),
  expires_at: isoTimestampSchema('When checkout_url expires; re-submit for a fresh link', '2026-11-22T21:05:03.000Z'),
  submitted_at: isoTimestampSchema(
    'When the submission was made (a site record writes its submitted_at in database style instead)',
  ),
  reason: paymentReasonSchema.describe('Why payment is needed'),
  mcp_url: mcpUrlRecordSchema,
  notices: submitNoticesSchema,
});
export type PendingRecord = z.infer<typeof pendingRecordSchema>;

/** Queued response (2.2): the 201 body of a submit covered by the membership quota. */
export const queuedResponseSchema = z.object({
  site_id: siteIdSchema,
  status: z.literal('queued'),
  via: z.literal('membership').describe('Covered by the membership quota'),
  quota: z.object({ used_today: z.number().int(), daily_limit: z.number().int() }),
  notices: submitNoticesSchema,
});
export type QueuedResponse = z.infer<typeof queuedResponseSchema>;

/** The detail read (2.5): a site record (with history and queue position), or the pending-payment record of an unpaid submission. */
export const submissionRecordSchema = z.union([siteDetailSchema, pendingRecordSchema]);
export type SubmissionRecord = z.infer<typeof submissionRecordSchema>;

/** The list envelope (2.6): the caller's submissions past payment, newest first. */
export const siteListSchema = z.object({
  sites: z.array(siteRecordSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type SiteList = z.infer<typeof siteListSchema>;
