import { describe, expect, it } from 'vitest';
import { niceMax, statsChartSection } from '../../../functions/pages/account/stats-chart';
import type { SiteStats } from '../../../src/stats/stats-schemas';
import { addDays } from '../../../src/stats/utc-day';
import { clickThroughRate } from '../../../src/stats/click-through';

/** 30 days ending 2026-11-25; `views`/`clicks` by day index, zeros elsewhere. */
function stats(views: Record<number, number>, clicks: Record<number, number> = {}): SiteStats {
  const days = Array.from({ length: 30 }, (_, i) => ({
    date: addDays('2026-10-27', i),
    views: views[i] ?? 0,
    clicks: clicks[i] ?? 0,
    impressions: (views[i] ?? 0) * 10,
    badge_loads: i === 3 ? 2 : 0,
  }));
  const sum = (key: 'views' | 'clicks' | 'impressions' | 'badge_loads') => days.reduce((a, d) => a + d[key], 0);
  const totals = {
    views: sum('views'),
    clicks: sum('clicks'),
    impressions: sum('impressions'),
    badge_loads: sum('badge_loads'),
  };
  return {
    site_id: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a',
    from: days[0]!.date,
    to: days.at(-1)!.date,
    days,
    totals: {
      ...totals,
      impressions_by_placement: { sponsored: 0, featured: 0, standard: totals.impressions },
      click_through_rate: clickThroughRate(totals),
    },
  };
}

const render = async (s: SiteStats) => String(await statsChartSection(s));
const rects = (markup: string) => [
  ...markup.matchAll(
    /<rect class="bar-(views|clicks)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"><\/rect>/g,
  ),
];

describe('the statistics chart of a submission page', () => {
  it('draws one bar per day and counter that is above zero, on an axis rounded up from the busiest day', async () => {
    const markup = await render(stats({ 0: 3, 10: 40, 29: 17 }, { 10: 4 }));
    const bars = rects(markup);
    expect(bars.map((b) => b[1])).toEqual(['views', 'views', 'clicks', 'views']);
    const heights = bars.map((b) => Number(b[5]));
    // The plot is 220 - 12 - 30 = 178 high; 40 views on an axis topped at 50 are 4/5 of it, 4 clicks 1/10 of 4/5.
    expect(heights).toEqual([10.7, 142.4, 14.2, 60.5]);
    expect(markup).toContain('>50</text>');
    expect(markup).toContain('>25</text>');
    // Bars of later days sit further right, inside the plot.
    const xs = bars.filter((b) => b[1] === 'views').map((b) => Number(b[2]));
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(xs.every((x) => x >= 44 && x <= 592)).toBe(true);
  });

  it('is an image with a name and a description, and puts every number in a table for screen readers', async () => {
    const markup = await render(stats({ 10: 40 }, { 10: 4 }));
    expect(markup).toContain(
      '<svg viewBox="0 0 600 220" role="img" aria-labelledby="stats-title stats-desc" focusable="false">',
    );
    expect(markup).toContain('<title id="stats-title">Views and clicks per day, 2026-10-27 to 2026-11-25</title>');
    expect(markup).toContain(
      '<desc id="stats-desc">40 views and 4 clicks in 30 days. The busiest day was 2026-11-06 with 40 views. The table after the chart lists every day.</desc>',
    );
    expect(markup).toContain('<div class="vh"><table>');
    expect(markup).toContain('<caption>Statistics per day, 2026-10-27 to 2026-11-25 (UTC)</caption>');
    expect(markup.match(/<tr><th scope="row">/g)).toHaveLength(30);
    expect(markup).toContain('<tr><th scope="row">2026-11-06</th><td>40</td><td>4</td><td>400</td><td>0</td></tr>');
    expect(markup).toContain('<tr><th scope="row">2026-10-30</th><td>0</td><td>0</td><td>0</td><td>2</td></tr>');
  });

  it('states the click-through rate in words, and a dash for a tool never shown', async () => {
    const shown = await render(stats({ 10: 40 }, { 10: 4 }));
    expect(shown).toContain(
      'Click-through rate: <strong>0.9 %</strong> <span class="muted">(4 visits to your website from 400 card impressions and 40 page views)</span>',
    );
    const never = await render(stats({}));
    expect(never).toContain('Click-through rate: <strong>–</strong>');
    expect(rects(never)).toEqual([]);
    expect(never).toContain(
      '<desc id="stats-desc">0 views and 0 clicks in 30 days. The table after the chart lists every day.</desc>',
    );
    expect(never).toContain('>1</text>'); // an empty chart still has an axis
  });

  it('labels the first, middle and last day, and escapes nothing it was not given', async () => {
    const markup = await render(stats({ 1: 1 }));
    expect([...markup.matchAll(/text-anchor="(start|middle|end)">(\d\d-\d\d)<\/text>/g)].map((m) => m[2])).toEqual([
      '10-27',
      '11-10',
      '11-25',
    ]);
    expect(markup).not.toContain('<script');
    expect(markup).not.toContain('style=');
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 40, 51, 999, 1001].map(niceMax)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 100, 1000, 2000,
    ]);
  });
});
