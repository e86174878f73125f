import { z } from 'zod';
import { siteStatuses } from '../../src/db/schema';
import { planNames } from '../../src/submissions/plans';
import { crawlFailureKinds } from '../../src/pipeline/crawler/crawl-result';
import { editOutputFields } from './edit-output-fields';

// Output schemas of the keyed tools. MCP wants one object schema per tool, so each is the union of the REST
// bodies the tool can return, with the fields that only some of them carry marked optional.

const paymentFields = {
  plan: z.enum(planNames).optional(),
  checkout_url: z.string().optional().describe('Hosted checkout link (status pending_payment). Show it to the user to open and pay'),
  expires_at: z.string().optional().describe('When checkout_url expires (ISO 8601); re-submit for a fresh link'),
  reason: z
    .enum(['no_membership', 'quota_exceeded', 'plan_not_covered', 'payment_pending'])
    .optional()
    .describe('Why payment is needed (status pending_payment)'),
};

/** submit_site: the 201 queued body or the 402 pending-payment record of REST. */
export const submitOutputSchema = z.object({
  site_id: z.string().describe('Id of the submission; stays the same after payment. Use it with get_site_status'),
  status: z.enum(['queued', 'pending_payment']),
  via: z.literal('membership').optional().describe('Present when queued: covered by the membership quota'),
  quota: z.object({ used_today: z.number().int(), daily_limit: z.number().int() }).optional(),
  name: z.string().optional(),
  url: z.string().optional(),
  submitted_at: z.string().optional(),
  ...paymentFields,
});

/** get_site_status: the REST detail read (site record, pending-payment record, or refunded record). */
export const siteStatusOutputSchema = z.object({
  site_id: z.string(),
  name: z.string(),
  url: z.string(),
  status: z.enum([...siteStatuses, 'pending_payment']),
  is_feature: z.boolean().optional(),
  is_sponsor: z.boolean().optional(),
  submitted_at: z.string(),
  live_url: z.string().optional().describe('Public page; present when status is live'),
  rejection_reason: z.string().optional().describe('Why a paid submission was refunded and rejected'),
  crawl_error: z
    .object({
      code: z.enum(crawlFailureKinds).describe('The kind of failure, e.g. blocked_address, dns_error, timeout, http_error, not_html'),
      message: z.string().describe('The kind in words, e.g. "the site answered HTTP 500"; tell the user'),
    })
    .optional()
    .describe('Why the crawl failed (status crawl_failed only)'),
  ...editOutputFields,
  ...paymentFields,
});
