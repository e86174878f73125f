import { z } from 'zod';

/** The edit fields of a site record (docs/pipeline.md "Edits"), as get_site_status, retry_site and edit_site return them. */
export const editOutputFields = {
  pending_edit: z
    .object({
      edit_id: z.string(),
      name: z.string().optional(),
      description: z.string().optional(),
      submitted_at: z.string(),
    })
    .optional()
    .describe('An edit waiting for an editor; the public page still shows the current name and description'),
  last_edit: z
    .object({
      edit_id: z.string(),
      status: z.enum(['approved', 'rejected']),
      reason: z.string().optional().describe("The editor's reason (tell the user why an edit was rejected)"),
      decided_at: z.string(),
    })
    .optional()
    .describe('The outcome of the most recently decided edit'),
};
