// MCP tools that act on one of the caller's own submissions (the twins of POST /api/v1/sites/{site_id}/… and PATCH /api/v1/sites/{site_id}).
import { z } from 'zod';
import { describePolicy } from '../../src/rate-limits/describe';
import { MAX_RETRIES_PER_DAY, retrySite } from '../../src/submissions/retry';
import { editSite } from '../../src/submissions/edit';
import { DESCRIPTION_MAX, editInputSchema } from '../../src/submissions/edit-input';
import { siteStatusOutputSchema } from './output-schemas';
import { defineTool } from './define-tool';

export const retrySiteTool = defineTool({
  name: 'retry_site',
  title: 'Retry a failed crawl',
  description:
    'Puts one of your submissions whose crawl failed (status crawl_failed, see crawl_error in get_site_status) back ' +
    'in the queue for a fresh set of crawl attempts; fix the site first (e.g. make it answer HTTP 200 with an HTML ' +
    `page). Same as POST /api/v1/sites/{site_id}/retry: at most ${MAX_RETRIES_PER_DAY} retries per submission and UTC ` +
    `day, ${describePolicy('submit')} (the submit bucket). Returns the site record (status queued). Errors: not_found, ` +
    'invalid_state (the submission is not crawl_failed; the message names its status), rate_limited.',
  auth: 'api_key',
  scope: 'sites:submit',
  readOnly: false,
  inputSchema: z.object({
    site_id: z
      .string({ error: 'site_id must be a string' })
      .max(100, { error: 'site_id must be a UUID' })
      .describe('The site_id returned by submit_site'),
  }),
  outputSchema: siteStatusOutputSchema,
  async run(caller, input) {
    const actor = await caller.actor();
    await caller.limit('submit', actor.accountId);
    return retrySite({ deps: caller.deps, actor, input });
  },
});

export const editSiteTool = defineTool({
  name: 'edit_site',
  title: 'Propose a new name or description for a live tool, or fix the address of a failed crawl',
  description:
    'Files an edit of one of your live tools: a new name (2 to 100 characters, the rules of submit_site, and no other ' +
    `tool may hold it) and/or a new description (plain text, 1 to ${DESCRIPTION_MAX} characters). An editor reviews it: ` +
    'the public page keeps the current text until approval. Same as PATCH /api/v1/sites/{site_id}; a new edit replaces ' +
    'a pending one. Returns the site record with pending_edit; later, get_site_status shows last_edit (approved, or ' +
    `rejected with the editor's reason). ${describePolicy('submit')} (the submit bucket). Errors: not_found, ` +
    'invalid_state (the submission is not live), already_submitted (the name is taken), invalid_request. ' +
    'To fix a failed crawl (status crawl_failed), give url alone: the new address (the URL rules and duplicate check of ' +
    'submit_site) replaces the old one and the submission is crawled again without paying again; it counts as a retry ' +
    `(at most ${MAX_RETRIES_PER_DAY} a day). Errors then: invalid_state (not crawl_failed), already_submitted (the message ` +
    'names the listing holding the address), rate_limited. ' +
    'mcp_url sets the MCP endpoint at once (null removes it); get_site_status shows what its probe found.',
  auth: 'api_key',
  scope: 'sites:submit',
  readOnly: false,
  inputSchema: editInputSchema.extend({
    site_id: z
      .string({ error: 'site_id must be a string' })
      .max(100, { error: 'site_id must be a UUID' })
      .describe('The site_id of your live tool (or, with url, of your submission whose crawl failed)'),
  }),
  outputSchema: siteStatusOutputSchema,
  async run(caller, input) {
    const actor = await caller.actor();
    await caller.limit('submit', actor.accountId);
    return editSite({ deps: caller.deps, actor, input });
  },
});
