import { html } from 'hono/html';
import type { ReviewQueueItem } from '../../src/pipeline/editor-sessions';
import type { CrawlFailureItem } from '../../src/pipeline/recent-crawl-failures';
import { mediaPath } from '../../src/media/media-name';
import { placeholderImage } from '../../src/media/placeholder';
import { safeUrl, type Html } from '../pages/layout';
import type { PendingEditItem } from '../../src/pipeline/decide-edit';
import { editsView } from './edit-views';
import { csrfField } from '../middleware/csrf';

/** The sign-in form: the operator token, posted once, exchanged for an HttpOnly session cookie. */
export function loginView(message?: string): Html {
  return html`<h1>Editor sign-in</h1>
${message ? html`<p role="alert">${message}</p>` : ''}
<form method="post" action="/admin/login">
<label>Operator token <input type="password" name="token" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`;
}

function checksView(item: ReviewQueueItem): Html {
  const checks = item.review_checks?.checks;
  if (!checks?.length) return html`<p class="muted">Automatic checks not run yet.</p>`;
  return html`<ul>${checks.map((c) => html`<li>${c.passed ? '✔' : '✘'} ${c.name}: ${c.detail}</li>`)}</ul>`;
}

/** A queue item with its category slugs (src/categories/site-categories.ts). */
export type ReviewItemWithCategories = ReviewQueueItem & { categories?: string[] };

function decisionForm(item: ReviewItemWithCategories, csrf: string): Html {
  const action = `/admin/sites/${item.site_id}/review`;
  return html`<form method="post" action="${action}">
${csrfField(csrf)}
<label>Categories (up to 3 slugs, comma-separated; sent with the decision) <input type="text" name="categories" value="${(item.categories ?? []).join(', ')}" maxlength="200"></label>
<label>Reason (optional) <input type="text" name="reason" maxlength="1000"></label>
${item.status === 'pending_review' ? html`<button type="submit" name="decision" value="approve">Approve</button>` : ''}
<button type="submit" name="decision" value="reject">${item.status === 'live' ? 'Take down' : 'Reject'}</button>
</form>`;
}

function itemView(item: ReviewItemWithCategories, csrf: string): Html {
  const m = item.metadata ?? {};
  const href = safeUrl(item.url);
  // Only our own /media/ copies: an editor's browser never contacts the submitter's server (the sources are text).
  const image = mediaPath(m.image);
  return html`<li>
<h3><img class="icon" src="${mediaPath(m.icon) ?? placeholderImage(item.name)}" alt="" width="20" height="20">${item.name} <span class="muted">(${item.plan}, submitted ${item.submitted_at})</span></h3>
<p>${href ? html`<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">${item.url}</a>` : item.url}
${m.finalUrl && m.finalUrl !== item.url ? html` → final URL ${m.finalUrl}` : ''}</p>
<p><strong>Title:</strong> ${m.title ?? '—'}<br><strong>Description:</strong> ${m.description ?? '—'}<br><strong>Language:</strong> ${m.language ?? '—'}</p>
${image ? html`<p><img class="shot" src="${image}" alt="" loading="lazy"></p>` : ''}
${m.imageSource || m.iconSource ? html`<p class="muted">Image from ${m.imageSource ?? '—'}<br>Icon from ${m.iconSource ?? '—'}</p>` : ''}
${item.status === 'pending_review' ? checksView(item) : html`<p>Live at <a href="${safeUrl(item.live_url) ?? '/'}">${item.live_url}</a></p>`}
${decisionForm(item, csrf)}
</li>`;
}

/** One failed crawl: the submitter's words next to the operator detail they never see. */
function crawlFailureView(item: CrawlFailureItem): Html {
  return html`<li>
<h3>${item.name} <span class="muted">(failed ${item.failed_at} after ${item.crawl_attempts} attempt(s))</span></h3>
<p>${item.url}</p>
<p><strong>Submitter is told:</strong> ${item.told.message} (${item.told.code})<br><strong>Detail:</strong> <code>${item.detail ?? '—'}</code></p>
</li>`;
}

/** The review queue: pending sites with their crawled metadata and checks, then recent live tools and crawl failures. */
export function queueView(
  items: ReviewItemWithCategories[],
  failures: CrawlFailureItem[],
  csrf: string,
  notice?: string,
  edits: PendingEditItem[] = [],
  categorySlugs: string[] = [],
): Html {
  const pending = items.filter((i) => i.status === 'pending_review');
  const live = items.filter((i) => i.status === 'live');
  return html`<h1>Review queue</h1>
<form method="post" action="/admin/logout">${csrfField(csrf)}<button type="submit">Sign out</button></form>
${notice ? html`<p role="status">${notice}</p>` : ''}
${categorySlugs.length ? html`<p class="muted">Categories: ${categorySlugs.join(', ')}</p>` : ''}
<h2>Waiting for review (${pending.length})</h2>
${pending.length ? html`<ul class="tools">${pending.map((i) => itemView(i, csrf))}</ul>` : html`<p class="muted">Nothing to review.</p>`}
${editsView(edits, csrf)}
<h2>Recently live</h2>
${live.length ? html`<ul class="tools">${live.map((i) => itemView(i, csrf))}</ul>` : html`<p class="muted">No live tools.</p>`}
<h2>Recent crawl failures</h2>
${failures.length ? html`<ul class="tools">${failures.map(crawlFailureView)}</ul>` : html`<p class="muted">No failed crawls.</p>`}`;
}
