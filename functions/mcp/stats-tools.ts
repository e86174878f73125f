// MCP get_site_stats: the twin of GET /api/v1/sites/{site_id}/stats (docs/stats.md).
import { describePolicy } from '../../src/rate-limits/describe';
import { getSiteStats } from '../../src/stats/site-stats';
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS, siteStatsSchema, statsInputSchema } from '../../src/stats/stats-schemas';
import { defineTool } from './define-tool';

export const getSiteStatsTool = defineTool({
  name: 'get_site_stats',
  title: "Your tool's listing statistics",
  description:
    'Per UTC day for one of your own submissions (needs the API key or the sites:read scope): views of its tool ' +
    'page, clicks through to its website, impressions of its card (home, category pages, search; by placement in ' +
    'totals) and loads of its badge, with totals and the click-through rate (clicks / (impressions + views)). ' +
    `Pass site_id and optionally from/to (YYYY-MM-DD, both included; default the ${DEFAULT_STATS_DAYS} days up to today, ` +
    `at most ${MAX_STATS_DAYS} days). Days without events are zeros; bots and prefetches are never counted. Same body ` +
    `as GET /api/v1/sites/{site_id}/stats; ${describePolicy('read')}. Errors: not_found (unknown or not yours), ` +
    'invalid_request (a bad date or range).',
  auth: 'api_key',
  scope: 'sites:read',
  readOnly: true,
  inputSchema: statsInputSchema,
  outputSchema: siteStatsSchema,
  async run(caller, input) {
    const actor = await caller.actor();
    await caller.limit('read', actor.accountId);
    return getSiteStats({ deps: caller.deps, actor, input });
  },
});
