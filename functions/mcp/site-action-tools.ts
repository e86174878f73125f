// MCP tools that act on one of the caller's own submissions (the twins of POST /api/v1/sites/{site_id}/…).
import { z } from 'zod';
import { describePolicy } from '../../src/rate-limits/describe';
import { MAX_RETRIES_PER_DAY, retrySite } from '../../src/submissions/retry';
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
    site_id: z.string({ error: 'site_id must be a string' }).max(100, { error: 'site_id must be a UUID' }).describe('The site_id returned by submit_site'),
  }),
  outputSchema: siteStatusOutputSchema,
  async run(caller, input) {
    const actor = await caller.actor();
    await caller.limit('submit', actor.accountId);
    return retrySite({ deps: caller.deps, actor, input });
  },
});
