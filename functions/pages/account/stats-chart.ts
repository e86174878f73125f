import { html, raw } from 'hono/html';
import type { SiteStats } from '../../../src/stats/stats-schemas';
import { formatRate } from '../../../src/stats/click-through';
import type { Html } from '../shell/html';

// A tool's last days on its submission page (docs/stats.md "Where makers read it"): views and clicks per day as an
// SVG bar chart drawn here on the server (no script, readable without JavaScript), the click-through rate in
// words, and every number in a table that screen readers read instead of the picture. Colours come from the
// stylesheet's tokens (STATS_CHART_CSS), so the chart follows the light and dark schemes.

/** The chart's coordinate system: the SVG scales to the column, these are its units. */
const WIDTH = 600;
const HEIGHT = 220;
const PLOT = { left: 44, right: 8, top: 12, bottom: 30 };

/** The stylesheet rules of the chart (added to the one stylesheet, functions/pages/shell/stylesheet.ts). */
export const STATS_CHART_CSS = `.stats-chart figure{margin:0 0 var(--space-4)}.stats-chart svg{display:block;width:100%;max-width:40rem;height:auto}
.stats-chart .bar-views{fill:var(--accent)}.stats-chart .bar-clicks{fill:var(--focus)}.stats-chart .grid{stroke:var(--border)}
.stats-chart text{fill:var(--muted);font:16px var(--font)}.stats-chart .key{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 .8em;border-radius:2px}
.stats-chart .key.views{background:var(--accent)}.stats-chart .key.clicks{background:var(--focus)}.stats-chart .key:first-child{margin-left:0}`;

const n = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, word: string) => `${n(value)} ${word}${value === 1 ? '' : 's'}`;

/** The smallest of 1, 2, 5 × 10^k at or above `value` (at least 1): a round top for the axis. */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((top) => top >= value)!;
}

/** One short sentence of what the picture shows, for its accessible description. */
function summary(stats: SiteStats): string {
  const busiest = stats.days.reduce((best, day) => (day.views > best.views ? day : best), stats.days[0]!);
  const peak = busiest.views > 0 ? ` The busiest day was ${busiest.date} with ${plural(busiest.views, 'view')}.` : '';
  return `${plural(stats.totals.views, 'view')} and ${plural(stats.totals.clicks, 'click')} in ${plural(stats.days.length, 'day')}.${peak} The table after the chart lists every day.`;
}

/** The bars, the axis and its labels, as SVG markup (numbers only are interpolated; the fragment is our own). */
function chartSvg(stats: SiteStats, id: string): Html {
  const top = niceMax(Math.max(0, ...stats.days.flatMap((d) => [d.views, d.clicks])));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / stats.days.length;
  const bar = Math.max(1, Math.min(12, (slot - 2) / 2));
  const y = (value: number) => PLOT.top + plotHeight - (value / top) * plotHeight;
  const round = (value: number) => Math.round(value * 10) / 10;
  const bars = stats.days
    .map((day, i) => {
      const x = PLOT.left + i * slot + (slot - 2 * bar) / 2;
      const rect = (value: number, at: number, kind: 'views' | 'clicks') =>
        value > 0
          ? `<rect class="bar-${kind}" x="${round(at)}" y="${round(y(value))}" width="${round(bar)}" height="${round(y(0) - y(value))}"></rect>`
          : '';
      return rect(day.views, x, 'views') + rect(day.clicks, x + bar, 'clicks');
    })
    .join('');
  const grid = [0, top / 2, top]
    .filter((value) => Number.isInteger(value))
    .map(
      (value) =>
        `<line class="grid" x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${round(y(value))}" y2="${round(y(value))}"></line><text x="${PLOT.left - 6}" y="${round(y(value) + 5)}" text-anchor="end">${n(value)}</text>`,
    )
    .join('');
  const last = stats.days.length - 1;
  const labels = [0, Math.floor(last / 2), last]
    .filter((i, k, all) => all.indexOf(i) === k)
    .map((i) => {
      const anchor = i === 0 ? 'start' : i === last ? 'end' : 'middle';
      const x = i === 0 ? PLOT.left : i === last ? WIDTH - PLOT.right : PLOT.left + (i + 0.5) * slot;
      return `<text x="${round(x)}" y="${HEIGHT - 8}" text-anchor="${anchor}">${stats.days[i]!.date.slice(5)}</text>`;
    })
    .join('');
  return html`<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc" focusable="false">
<title id="${id}-title">Views and clicks per day, ${stats.from} to ${stats.to}</title>
<desc id="${id}-desc">${summary(stats)}</desc>
${raw(grid)}${raw(bars)}${raw(labels)}
</svg>`;
}

/** Every day with every counter: what a screen reader reads instead of the picture. */
function dayTable(stats: SiteStats): Html {
  // The wrapper is what hides it: a table ignores the 1 px width a visually-hidden class gives it.
  return html`<div class="vh"><table>
<caption>Statistics per day, ${stats.from} to ${stats.to} (UTC)</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Views</th><th scope="col">Clicks</th><th scope="col">Card impressions</th><th scope="col">Badge loads</th></tr></thead>
<tbody>${stats.days.map((d) => html`<tr><th scope="row">${d.date}</th><td>${n(d.views)}</td><td>${n(d.clicks)}</td><td>${n(d.impressions)}</td><td>${n(d.badge_loads)}</td></tr>`)}</tbody>
</table></div>`;
}

/**
 * The statistics section of a submission page. `stats` is getSiteStats' answer for the days to show (the page
 * asks for the last 30); `id` keeps the SVG's title and description ids unique if a page ever shows two charts.
 */
export function statsChartSection(stats: SiteStats, id = 'stats'): Html {
  const t = stats.totals;
  const p = t.impressions_by_placement;
  return html`<section class="panel stats-chart" aria-labelledby="${id}-heading">
<h2 id="${id}-heading">Last ${plural(stats.days.length, 'day')}</h2>
<p>Click-through rate: <strong>${formatRate(t.click_through_rate)}</strong> <span class="muted">(${plural(t.clicks, 'visit')} to your website from ${plural(t.impressions, 'card impression')} and ${plural(t.views, 'page view')})</span></p>
<figure>
${chartSvg(stats, id)}
<figcaption class="small" aria-hidden="true"><span class="key views"></span>Views <span class="key clicks"></span>Clicks</figcaption>
</figure>
${dayTable(stats)}
<dl class="facts">
<dt>Views</dt><dd>${n(t.views)}</dd>
<dt>Clicks</dt><dd>${n(t.clicks)}</dd>
<dt>Card impressions</dt><dd>${n(t.impressions)} <span class="muted">(${n(p.sponsored)} sponsored, ${n(p.featured)} featured, ${n(p.standard)} standard)</span></dd>
<dt>Badge loads</dt><dd>${n(t.badge_loads)}</dd>
</dl>
<p class="small muted">Counted without cookies and without storing anything about visitors; bots and prefetches are not counted. Today's numbers are updated every hour.</p>
</section>`;
}
