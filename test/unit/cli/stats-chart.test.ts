import { describe, expect, it } from 'vitest';
import { bucket, sparkline, statsLines } from '../../../src/cli/stats-chart';
import type { SiteStats } from '../../../src/stats/stats-schemas';

const day = (date: string, views = 0, clicks = 0) => ({ date, views, clicks, impressions: 0, badge_loads: 0 });

describe('the terminal chart of tooldir stats', () => {
  it('scales sparklines to the largest value, shows nothing as a dot and any count as at least the lowest block', () => {
    expect(sparkline([0, 1, 4, 8, 100])).toBe('·▁▁▁█');
    expect(sparkline([0, 0])).toBe('··');
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
  });

  it('adds consecutive days into at most 60 columns', () => {
    expect(bucket([1, 2, 3])).toEqual([1, 2, 3]);
    const long = bucket(Array.from({ length: 400 }, () => 1));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.reduce((a, b) => a + b, 0)).toBe(400);
  });

  it('prints one line per counter with its total, the date axis, the rate and the placements', () => {
    const stats: SiteStats = {
      site_id: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a',
      from: '2026-11-20',
      to: '2026-11-22',
      days: [day('2026-11-20', 4, 1), day('2026-11-21'), day('2026-11-22', 8, 1)],
      totals: {
        views: 12,
        clicks: 2,
        impressions: 0,
        badge_loads: 0,
        impressions_by_placement: { sponsored: 0, featured: 0, standard: 0 },
        click_through_rate: 0.1667,
      },
    };
    expect(statsLines(stats)).toEqual([
      'Statistics of 6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a, 2026-11-20 to 2026-11-22 (3 UTC days)',
      '',
      'views        ▄·█         12',
      'clicks       █·█          2',
      'impressions  ···          0',
      'badge loads  ···          0',
      '',
      'Click-through rate: 16.7 % (clicks per card impression or page view)',
      'Impressions by placement: 0 sponsored, 0 featured, 0 standard',
    ]);
  });
});
