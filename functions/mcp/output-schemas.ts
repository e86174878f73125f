import { z } from 'zod';
import {
  pendingRecordSchema,
  queuedResponseSchema,
  siteDetailSchema,
  siteRecordSchema,
} from '../../src/submissions/record-schemas';

// Output schemas of the keyed tools, built from the REST bodies (src/submissions/record-schemas.ts). MCP wants
// one object schema per tool, so each is the union of the bodies the tool can return as one object: the fields
// every body has stay required, the others become optional, and `status` takes the values of all of them.

const queued = queuedResponseSchema.shape;
const pending = pendingRecordSchema.shape;
const site = siteRecordSchema.shape;

/** submit_site: the 201 queued body or the 402 pending-payment record of REST. */
export const submitOutputSchema = z.object({
  ...pendingRecordSchema.partial().shape,
  ...queuedResponseSchema.partial().shape,
  // What an agent should do with the id and the link (the REST descriptions say what they are).
  site_id: queued.site_id.describe('Id of the submission; stays the same after payment. Use it with get_site_status'),
  status: z.enum([queued.status.value, pending.status.value]),
  checkout_url: pending.checkout_url
    .optional()
    .describe('Hosted checkout link (status pending_payment). Show it to the user to open and pay'),
});

/** get_site_status: the REST detail read (a site record, refunded ones included, or a pending-payment record). */
export const siteStatusOutputSchema = z.object({
  ...pendingRecordSchema.partial().shape,
  ...siteRecordSchema.partial().shape,
  // A site record's history and queue position (docs/submission-progress.md); a pending-payment record has neither.
  ...siteDetailSchema.pick({ history: true, queue: true }).partial().shape,
  site_id: site.site_id,
  name: site.name,
  url: site.url,
  status: z.enum([...site.status.options, pending.status.value]),
  // A site record's submitted_at is YYYY-MM-DD HH:MM:SS+00, a pending record's ISO 8601: either is a string.
  submitted_at: z.string(),
});
