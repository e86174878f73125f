// The editor page's list of listings whose daily check fails or that moved, each with the take-down form (the same
// decision route as a live tool in the queue: POST /admin/sites/{id}/review with decision=reject).
import { html } from 'hono/html';
import type { TroubledListing } from '../../src/health/listings-with-trouble';
import { formatTime } from '../../src/display-time';
import { safeUrl, type Html } from '../pages/layout';
import { csrfField } from '../middleware/csrf';

function troubleView(item: TroubledListing, csrf: string): Html {
  const { health } = item;
  const what =
    health.state === 'moved'
      ? html`Moved to <strong>${health.moved_to ?? 'another domain'}</strong>`
      : html`Failing: <strong>${health.reason ?? 'no answer'}</strong>`;
  return html`<li>
<h3>${item.name} <span class="muted">(${item.hidden ? 'hidden from the lists' : 'still listed'})</span></h3>
<p>${item.url}${item.live_url ? html` · <a href="${safeUrl(item.live_url) ?? '/'}">its page</a>` : ''}</p>
<p>${what} since ${formatTime(health.failing_since)}; last checked ${formatTime(health.last_checked_at)}, last answered ${formatTime(health.last_ok_at)}.</p>
<form method="post" action="/admin/sites/${item.site_id}/review">
${csrfField(csrf)}
<label>Reason (optional, told to the owner) <input type="text" name="reason" maxlength="1000"></label>
<button type="submit" name="decision" value="reject">Take down</button>
</form>
</li>`;
}

/** "Listings with a failing check (n)": the longest-failing first. */
export function troubleListView(items: TroubledListing[], csrf: string): Html {
  return html`<section id="health-trouble" aria-labelledby="health-trouble-title"><h2 id="health-trouble-title">Listings that fail their daily check (${items.length})</h2>
${items.length ? html`<ul class="tools">${items.map((i) => troubleView(i, csrf))}</ul>` : html`<p class="muted">Every checked listing answers.</p>`}</section>`;
}
