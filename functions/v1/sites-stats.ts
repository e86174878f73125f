// GET /api/v1/sites/{site_id}/stats – a tool's listing statistics per UTC day (docs/stats.md)
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { getSiteStats } from '../../src/stats/site-stats';
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS, siteStatsSchema } from '../../src/stats/stats-schemas';
import { requireApiKey } from '../middleware/api-key-auth';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { bearerSecurity } from './schemas';
import { errorContent, keyedErrors } from './error-responses';

const SITE_ID = '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a';
const zeros = { views: 0, clicks: 0, impressions: 0, badge_loads: 0 };

// The component's name and its example in one meta call (a second call would replace the first one's).
const SiteStats = siteStatsSchema.meta({
  id: 'SiteStats',
  example: {
    site_id: SITE_ID,
    from: '2026-11-20',
    to: '2026-11-22',
    days: [
      { date: '2026-11-20', views: 41, clicks: 9, impressions: 310, badge_loads: 120 },
      { date: '2026-11-21', ...zeros },
      { date: '2026-11-22', views: 57, clicks: 12, impressions: 402, badge_loads: 131 },
    ],
    totals: {
      views: 98,
      clicks: 21,
      impressions: 712,
      badge_loads: 251,
      impressions_by_placement: { sponsored: 0, featured: 712, standard: 0 },
      click_through_rate: 0.0259,
    },
  },
});

const dayParam = (description: string, example: string) =>
  z.string().optional().openapi({ format: 'date', description, example });

const route = createRoute({
  method: 'get',
  path: '/api/v1/sites/{site_id}/stats',
  operationId: 'getSiteStats',
  tags: ['Submissions'],
  summary: "Your tool's listing statistics",
  description:
    "Per UTC day: `views` (loads of the tool page), `clicks` (visits to your website through the directory's " +
    'outbound link), `impressions` (your card on the home page, category pages and search results) and ' +
    '`badge_loads` (the embeddable badge). Bots and prefetches are not counted; no visitor is identified. Days ' +
    `without events are present as zeros. At most ${MAX_STATS_DAYS} days per request; without \`from\` the ` +
    `${DEFAULT_STATS_DAYS} days up to \`to\` (default today). Counts reach this table through an hourly roll-up, ` +
    "so today's numbers can lag by up to an hour. The MCP tool get_site_stats returns the same body.",
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: {
    params: z.object({ site_id: z.string().openapi({ format: 'uuid', example: SITE_ID }) }),
    query: z.object({
      from: dayParam(`First UTC day (included); default ${DEFAULT_STATS_DAYS - 1} days before \`to\``, '2026-11-20'),
      to: dayParam('Last UTC day (included); default today', '2026-11-22'),
    }),
  },
  responses: {
    200: { content: { 'application/json': { schema: SiteStats } }, description: 'Every day of the range, with totals' },
    400: errorContent(
      `A date that is not YYYY-MM-DD, from after to, or more than ${MAX_STATS_DAYS} days (code invalid_request)`,
    ),
    404: errorContent('No submission with this id, or not yours (code not_found)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'read', actor.accountId);
    const { from, to } = c.req.valid('query');
    const stats = await getSiteStats({
      deps: c.get('deps'),
      actor,
      input: { site_id: c.req.valid('param').site_id, from, to },
    });
    return c.json(stats, 200);
  });
}
