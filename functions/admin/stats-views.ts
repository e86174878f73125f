import { html } from 'hono/html';
import type { DirectoryStats } from '../../src/stats/directory-stats';
import { formatRate } from '../../src/stats/click-through';
import type { Html } from '../pages/layout';
import { badgeWords } from '../../src/catalog/plans';

// The operator's statistics on /admin (docs/stats.md): the directory's daily totals and the most viewed tools.

const n = (value: number) => value.toLocaleString('en-US');
// One word per tool: sponsored outranks featured (badgeWords lists sponsored last).
const flag = (t: { is_feature: boolean; is_sponsor: boolean }) => badgeWords(t).at(-1) ?? '';

export function directoryStatsView(stats: DirectoryStats): Html {
  const p = stats.placements;
  return html`<section aria-labelledby="directory-stats">
<h2 id="directory-stats">Directory statistics, ${stats.from} to ${stats.to}</h2>
<p>Card impressions by placement: ${n(p.sponsored)} sponsored, ${n(p.featured)} featured, ${n(p.standard)} standard.</p>
<h3>Most viewed tools</h3>
${
  stats.top.length
    ? html`<table class="stack"><thead><tr><th scope="col">Tool</th><th scope="col">Views</th><th scope="col">Clicks</th><th scope="col">Impressions</th><th scope="col">Badge loads</th><th scope="col">Click-through</th></tr></thead>
<tbody>${stats.top.map(
        (
          t,
        ) => html`<tr><td data-label="Tool">${t.slug ? html`<a href="/tools/${t.slug}">${t.name}</a>` : t.name}${flag(t) ? html` <span class="muted">(${flag(t)})</span>` : ''}</td>
<td data-label="Views">${n(t.views)}</td><td data-label="Clicks">${n(t.clicks)}</td><td data-label="Impressions">${n(t.impressions)}</td><td data-label="Badge loads">${n(t.badge_loads)}</td><td data-label="Click-through">${formatRate(t.click_through_rate)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">Nothing counted in these days yet.</p>`
}
<h3>Per day</h3>
<table class="stack"><thead><tr><th scope="col">Day</th><th scope="col">Views</th><th scope="col">Clicks</th><th scope="col">Impressions</th><th scope="col">Badge loads</th></tr></thead>
<tbody>${[...stats.days]
    .reverse()
    .map(
      (d) =>
        html`<tr><td data-label="Day">${d.date}</td><td data-label="Views">${n(d.views)}</td><td data-label="Clicks">${n(d.clicks)}</td><td data-label="Impressions">${n(d.impressions)}</td><td data-label="Badge loads">${n(d.badge_loads)}</td></tr>`,
    )}</tbody></table>
</section>`;
}
