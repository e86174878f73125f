import { z } from 'zod';

// The shapes of a tool's statistics as zod schemas: REST documents them in openapi.json and MCP get_site_stats
// declares them as its outputSchema, so both promise exactly what site-stats.ts returns.

/** At most this many days per request (from and to included). */
export const MAX_STATS_DAYS = 400;
/** Without `from`, this many days up to `to`. */
export const DEFAULT_STATS_DAYS = 30;

const day = (what: string) =>
  z
    .string({ error: `${what} must be a date YYYY-MM-DD` })
    .max(10, { error: `${what} must be a date YYYY-MM-DD` })
    .optional()
    .describe(`${what === 'from' ? 'First' : 'Last'} UTC day, YYYY-MM-DD (both days included)`);

export const statsInputSchema = z.object({
  site_id: z
    .string({ error: 'site_id must be a string' })
    .max(100, { error: 'site_id must be a UUID' })
    .describe('The site_id of one of your submissions'),
  from: day('from').describe(`First UTC day, YYYY-MM-DD; default ${DEFAULT_STATS_DAYS - 1} days before \`to\``),
  to: day('to').describe('Last UTC day, YYYY-MM-DD; default today (UTC)'),
});
export type StatsInput = z.input<typeof statsInputSchema>;

const count = (description: string) => z.number().int().min(0).describe(description);

export const statsDaySchema = z.object({
  date: z.string().describe('The UTC day, YYYY-MM-DD'),
  views: count('Loads of the tool page /tools/{slug} by people (not bots, not prefetches)'),
  clicks: count("Visits to the tool's website through the directory's outbound link /go/{slug}"),
  impressions: count('Times the tool card was shown on the home page, a category page or search results'),
  badge_loads: count('Loads of the "Listed on tooldir" badge /badge/{slug}.svg'),
});

export const statsTotalsSchema = statsDaySchema.omit({ date: true }).extend({
  impressions_by_placement: z
    .object({
      sponsored: count('In the sponsored slot or with the Sponsored badge'),
      featured: count('With the Featured badge'),
      standard: count('As a plain card'),
    })
    .describe('The impressions by how the card was shown'),
  click_through_rate: z
    .number()
    .nullable()
    .describe(
      'clicks / (impressions + views), 0 to 1, 4 decimals; null when the tool was not shown at all in the range',
    ),
});

export const siteStatsSchema = z.object({
  site_id: z.string(),
  from: z.string().describe('First UTC day of the range'),
  to: z.string().describe('Last UTC day of the range'),
  days: z.array(statsDaySchema).describe('Every day of the range, oldest first; a day without events has zeros'),
  totals: statsTotalsSchema.describe('Sums over the range'),
});
export type SiteStats = z.output<typeof siteStatsSchema>;
export type StatsDay = z.output<typeof statsDaySchema>;
