// The terminal picture of `tooldir stats`: one sparkline per counter over the range, its total, the click-through
// rate and the impressions by placement. Pure (tested in test/unit/cli/stats-chart.test.ts).
import type { SiteStats } from '../stats/stats-schemas';
import { formatRate } from '../stats/click-through';

/** A sparkline is at most this many columns: longer ranges add consecutive days into one column. */
export const MAX_COLUMNS = 60;
const BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const ROWS = [
  ['views', 'views'],
  ['clicks', 'clicks'],
  ['impressions', 'impressions'],
  ['badge_loads', 'badge loads'],
] as const;

/** Values summed into at most `columns` buckets of consecutive days. */
export function bucket(values: readonly number[], columns = MAX_COLUMNS): number[] {
  if (values.length <= columns) return [...values];
  const size = Math.ceil(values.length / columns);
  const out: number[] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size).reduce((a, b) => a + b, 0));
  return out;
}

/** `·` for nothing, else one of eight blocks scaled to the largest value (any count above zero shows at least ▁). */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (v <= 0 ? '·' : BLOCKS[Math.min(7, Math.max(0, Math.ceil((v / max) * 8) - 1))])).join('');
}

const n = (value: number) => value.toLocaleString('en-US');

export function statsLines(stats: SiteStats): string[] {
  const width = Math.min(stats.days.length, MAX_COLUMNS);
  const lines = [
    `Statistics of ${stats.site_id}, ${stats.from} to ${stats.to} (${stats.days.length} UTC day${stats.days.length === 1 ? '' : 's'})`,
    '',
  ];
  for (const [key, label] of ROWS) {
    const line = sparkline(bucket(stats.days.map((d) => d[key])));
    lines.push(`${label.padEnd(12)} ${line.padEnd(width)}  ${n(stats.totals[key]).padStart(9)}`);
  }
  const first = stats.from.slice(5);
  const last = stats.to.slice(5);
  if (width > first.length + last.length) lines.push(`${''.padEnd(12)} ${first}${last.padStart(width - first.length)}`);
  const p = stats.totals.impressions_by_placement;
  lines.push(
    '',
    `Click-through rate: ${formatRate(stats.totals.click_through_rate)} (clicks per card impression or page view)`,
    `Impressions by placement: ${n(p.sponsored)} sponsored, ${n(p.featured)} featured, ${n(p.standard)} standard`,
  );
  if (stats.days.length > MAX_COLUMNS)
    lines.push(`(one column is ${Math.ceil(stats.days.length / MAX_COLUMNS)} days; --json has every day)`);
  return lines;
}
