// MCP withdraw_site: the twin of DELETE /api/v1/sites/{site_id} (docs/pipeline.md "Withdrawal").
import { z } from 'zod';
import { describePolicy } from '../../src/rate-limits/describe';
import { withdrawSite } from '../../src/submissions/withdraw';
import { announceWebhookEvents } from '../../src/webhooks/announce';
import { siteStatusOutputSchema } from './output-schemas';
import { defineTool } from './define-tool';

export const withdrawSiteTool = defineTool({
  name: 'withdraw_site',
  title: 'Withdraw one of your live listings',
  description:
    'Takes one of your live tools out of the directory for good (same as DELETE /api/v1/sites/{site_id}): it becomes ' +
    'rejected with rejection_reason "withdrawn by its owner" and withdrawn_at; its page answers 410 and it leaves search, ' +
    'categories, the sitemap and every list; a sponsored plan is cancelled at the end of the period already paid for; its ' +
    'statistics stay readable (get_site_stats). Listing it again is a new submit_site. Calling it again answers the same ' +
    `record. ${describePolicy('submit')} (the submit bucket). Errors: not_found, invalid_state (the submission is not live; ` +
    'the message names its status), rate_limited.',
  auth: 'api_key',
  scope: 'sites:submit',
  readOnly: false,
  inputSchema: z.object({
    site_id: z
      .string({ error: 'site_id must be a string' })
      .max(100, { error: 'site_id must be a UUID' })
      .describe('The site_id of your live tool'),
  }),
  outputSchema: siteStatusOutputSchema,
  async run(caller, input) {
    const actor = await caller.actor();
    await caller.limit('submit', actor.accountId);
    const record = await withdrawSite({ deps: caller.deps, actor, input });
    caller.deps.defer(announceWebhookEvents(caller.deps));
    return record;
  },
});
