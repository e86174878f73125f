// The sections of /account/submissions/{site_id}, one small function each (docs/account.md "One submission").
// The page is SUBMISSION_SECTIONS in order: a new section is one function here and one line in that list. A
// section that does not apply to the record's state renders nothing.
import { html } from 'hono/html';
import type { Actor } from '../../../src/accounts/actor';
import type { Deps } from '../../../src/deps';
import { DESCRIPTION_MAX } from '../../../src/submissions/edit-input';
import { MAX_RETRIES_PER_DAY } from '../../../src/submissions/retry';
import type { PendingRecord, SiteDetailRecord, SubmissionRecord } from '../../../src/submissions/record-schemas';
import {
  describeLastEdit,
  describePendingEdit,
  describeQueue,
  describeReason,
  describeStatus,
} from '../../../src/submissions/progress-words';
import { badgeEmbedBox } from '../badge-embed';
import { amountLabel } from '../checkout/views';
import { csrfField, formatTime, type Html } from './layout';
import { getSiteStats } from '../../../src/stats/site-stats';
import { statsChartSection } from './stats-chart';
import { badgeWords } from '../../../src/catalog/plans';
import { HTTP_FALLBACK_NOTE } from '../../../src/submissions/history-reasons';
import { moneyText, REFUND_ARRIVAL_TEXT } from '../../../src/submissions/money-words';
import { getPublishedText } from '../../../src/submissions/published-text';
import { siteChangesSection } from './site-changes-section';
import { mcpSection, type McpFormState } from './mcp-section';

/** What the person typed into "Suggest an edit", and what was wrong with it, when the form comes back. */
export interface EditFormState {
  name: string;
  description: string;
  errors: { name?: string; description?: string };
}

/** What the person typed into "Change the address" of a failed crawl, and what was wrong with it. */
export interface UrlFormState {
  url: string;
  error?: string;
}

/** Everything a section may read. `deps` and `actor` are for sections that read more than the record. */
export interface SubmissionView {
  deps: Deps;
  actor: Actor;
  record: SubmissionRecord;
  now: Date;
  csrfToken: string;
  /** Names one fresh-checkout POST, so a double click or a reload makes one checkout session. */
  idempotencyKey: string;
  edit?: EditFormState;
  urlChange?: UrlFormState;
  mcpChange?: McpFormState;
}

export type Section = (view: SubmissionView) => Html | '' | Promise<Html | ''>;

const isPending = (r: SubmissionRecord): r is PendingRecord => r.status === 'pending_payment';
const site = (r: SubmissionRecord): SiteDetailRecord | undefined => (isPending(r) ? undefined : r);
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const base = (r: SubmissionRecord) => `/account/submissions/${r.site_id}`;

/** The status in words, and the facts that do not change. */
const statusSection: Section = ({ record }) => {
  const s = site(record);
  const badges = s ? badgeWords(s) : [];
  return html`<p>Status: <span class="status ${record.status}" id="status" data-status="${record.status}">${capitalised(describeStatus(record.status))}</span></p>
<dl class="facts panel">
<dt>Website</dt><dd>${/^https?:\/\//i.test(record.url) ? html`<a href="${record.url}" rel="noopener nofollow">${record.url}</a>` : record.url}</dd>
${isPending(record) ? html`<dt>Plan</dt><dd>${record.plan} (${amountLabel(record.plan)})</dd>` : ''}
${badges.length ? html`<dt>Placement</dt><dd>${badges.join(', ')}</dd>` : ''}
<dt>Submitted</dt><dd>${formatTime(record.submitted_at)}</dd>
<dt>Submission id</dt><dd><code>${record.site_id}</code></dd>
</dl>`;
};

/** Pay now while the link is open; once it has expired, a POST that re-submits for a fresh link. */
const paymentSection: Section = ({ record, now, csrfToken, idempotencyKey }) => {
  if (!isPending(record)) return '';
  const open = new Date(record.expires_at) > now;
  const action = open
    ? html`<p class="actions"><a class="button primary" id="pay-now" href="${record.checkout_url}">Pay now</a>
<span class="muted">The link works until ${formatTime(record.expires_at)}.</span></p>`
    : html`<p class="notice" id="expired">The checkout link expired at ${formatTime(record.expires_at)}. A fresh one pays for this same submission.</p>
<form method="post" action="${base(record)}/checkout">${csrfField(csrfToken)}<input type="hidden" name="idempotency_key" value="${idempotencyKey}">
<button type="submit" class="primary" id="fresh-checkout">Get a fresh checkout link</button></form>`;
  return html`<section class="panel" id="payment" aria-labelledby="payment-title"><h2 id="payment-title">Payment</h2>
<p>${describeReason(record.reason, record.plan)}</p>
${action}</section>`;
};

/** Where it waits and when it is expected to move on (docs/submission-progress.md). */
const queueSection: Section = ({ record, now }) => {
  const queue = site(record)?.queue;
  if (!queue) return '';
  return html`<section class="panel" aria-labelledby="queue-title"><h2 id="queue-title">In line</h2>
<p id="queue">${capitalised(describeQueue(queue))}.</p>
${queue.estimated_at ? '' : html`<p class="muted small">No estimate yet: too few submissions left this stage in the last 24 hours to measure its pace.</p>`}</section>`;
};

/**
 * Why the crawl failed, Retry (the verb of POST /api/v1/sites/{site_id}/retry, with its daily allowance), and a new
 * address for a mistyped one (the verb of PATCH /api/v1/sites/{site_id} with url; it counts as a retry).
 */
const crawlFailedSection: Section = ({ record, csrfToken, urlChange }) => {
  const s = site(record);
  if (s?.status !== 'crawl_failed') return '';
  const error = urlChange?.error;
  return html`<section class="panel" id="crawl-failed" aria-labelledby="crawl-failed-title"><h2 id="crawl-failed-title">The crawl failed</h2>
<p>Our crawler could not read the site: <strong id="crawl-error">${s.crawl_error?.message ?? 'no reason was recorded'}</strong>.</p>
<p>Fix the site so that it answers with a public HTML page, then retry. You can retry up to ${MAX_RETRIES_PER_DAY} times a day (UTC).</p>
<form method="post" action="${base(record)}/retry">${csrfField(csrfToken)}<button type="submit" class="primary" id="retry">Retry</button></form>
<h3 id="change-url-title">Wrong address?</h3>
<form method="post" action="${base(record)}/url" id="change-url" aria-labelledby="change-url-title" novalidate>${csrfField(csrfToken)}
<div class="field"><label for="new-url">Website address</label>
<input id="new-url" type="url" name="url" value="${urlChange?.url ?? s.url}" required maxlength="2048" inputmode="url" autocomplete="url"${error ? html` aria-invalid="true" aria-describedby="new-url-error new-url-hint"` : html` aria-describedby="new-url-hint"`}>
${error ? html`<span class="field-error" id="new-url-error">${error}</span>` : ''}<span class="hint" id="new-url-hint">The crawl starts again with this address at once, without paying again. It counts as one of the day's retries.</span></div>
<button type="submit" id="change-url-button">Change the address and crawl again</button></form></section>`;
};

/** Where the crawler read the page, and over which scheme (an http:// address is tried over https first). */
const crawledFromSection: Section = ({ record }) => {
  const s = site(record);
  if (!s?.crawled_url) return '';
  const fellBack = s.history.some((step) => step.reason === HTTP_FALLBACK_NOTE);
  const scheme = s.crawled_url.startsWith('https:') ? 'https' : 'http';
  return html`<p id="crawled-from" data-scheme="${scheme}">Crawled from <a href="${s.crawled_url}" rel="noopener nofollow">${s.crawled_url}</a> over ${scheme}${
    fellBack ? ': its https address did not answer with a page, so the http address you gave was used' : ''
  }.</p>`;
};

/** A paid submission rejected before it went live: its refund, pending or made (docs/payments.md). */
function refundLine(s: SiteDetailRecord): Html | '' {
  if (!s.refund) return '';
  if (s.refund.status === 'pending')
    return html`<p id="refund" data-refund="pending">Your payment is being refunded in full.</p>`;
  const amount =
    s.refund.amount !== undefined && s.refund.currency ? moneyText(s.refund.amount, s.refund.currency) : 'Your payment';
  return html`<p id="refund" data-refund="refunded">${amount} refunded in full (refund <code>${s.refund.refund_id ?? '–'}</code>${
    s.refund.refunded_at ? html`, ${formatTime(s.refund.refunded_at)}` : ''
  }). ${REFUND_ARRIVAL_TEXT}</p>`;
}

/** The editor's reason for a rejection, or why a payment was refunded. */
const rejectionSection: Section = ({ record }) => {
  const s = site(record);
  if (s?.status !== 'rejected') return '';
  if (s.withdrawn_at) {
    return html`<section class="panel" aria-labelledby="withdrawn-title"><h2 id="withdrawn-title">Withdrawn</h2>
<p id="withdrawn">You withdrew this listing on ${formatTime(s.withdrawn_at)}. Its page answers that it is no longer listed, and it
left search, the categories and the sitemap. Its statistics stay below.</p>
<p>To list it again, <a href="/submit">submit it</a> as a new submission.</p></section>`;
  }
  if (s.superseded) {
    return html`<section class="panel" aria-labelledby="rejected-title"><h2 id="rejected-title">Listed by its maker</h2>
<p>The maker of this tool listed it themselves after proving they control its website's domain, so this submission was
closed and the tool is not listed twice: <span id="rejection-reason">${s.rejection_reason}</span></p></section>`;
  }
  if (s.rejection_reason) {
    return html`<section class="panel" aria-labelledby="rejected-title"><h2 id="rejected-title">Payment refunded</h2>
<p>Your payment could not be applied and was refunded: <span id="rejection-reason">${s.rejection_reason}</span></p></section>`;
  }
  const reason = s.history.findLast((step) => step.status === 'rejected')?.reason;
  return html`<section class="panel" aria-labelledby="rejected-title"><h2 id="rejected-title">Why it was rejected</h2>
${reason ? html`<p>The editor's reason: <span id="rejection-reason">${reason}</span></p>` : html`<p id="rejection-reason">The editor gave no reason.</p>`}
${refundLine(s)}</section>`;
};

/** The slug of a live tool, read off its live_url (origin + /tools/{slug}, src/pipeline/publish.ts). */
function slugOf(liveUrl: string): string | undefined {
  const match = /\/tools\/([^/?#]+)$/.exec(liveUrl);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

/** The public page and the badge to embed (the tool page's own box, functions/pages/badge-embed.ts). */
const liveSection: Section = ({ record, deps }) => {
  const s = site(record);
  if (s?.status !== 'live' || !s.live_url) return '';
  const slug = slugOf(s.live_url);
  return html`<section class="panel" aria-labelledby="live-title"><h2 id="live-title">Live in the directory</h2>
<p>Your tool's public page: <a id="live-link" href="${s.live_url}">${s.live_url}</a></p></section>
${slug ? html`<div class="panel">${badgeEmbedBox({ slug, live_url: s.live_url, is_feature: s.is_feature }, deps.origin)}</div>` : ''}`;
};

const fieldError = (id: string, message: string | undefined) =>
  message ? html`<span class="field-error" id="${id}">${message}</span>` : '';
const describedBy = (ids: Array<string | false>) => {
  const list = ids.filter(Boolean).join(' ');
  return list ? html` aria-describedby="${list}"` : '';
};

/**
 * Before the tool goes live: the text its public page will show (the name and the description the crawl read), so
 * the submitter can check it and propose another with the edit form below (the same edit as for a live tool).
 */
const previewSection: Section = async ({ record, deps, actor }) => {
  const s = site(record);
  if (s?.status === 'queued' || s?.status === 'crawling') {
    return html`<section class="panel" id="preview" aria-labelledby="preview-title"><h2 id="preview-title">What will be published</h2>
<p>The description is read from your site when it is crawled; you can check it here, and change it, before an editor publishes the tool.</p></section>`;
  }
  if (s?.status !== 'pending_review') return '';
  const text = await getPublishedText(deps, actor, s.site_id);
  if (!text) return '';
  return html`<section class="panel" id="preview" aria-labelledby="preview-title"><h2 id="preview-title">What will be published</h2>
<p>Your tool's page will show this text once an editor approves it. If it is not right, suggest an edit below.</p>
<dl class="facts">
<dt>Name</dt><dd id="preview-name">${text.name}</dd>
<dt>Description</dt><dd id="preview-description">${text.description ?? html`<span class="muted">Your site gave none: the page will show no description unless you suggest one.</span>`}</dd>
</dl></section>`;
};

/** Suggest an edit (the verb of PATCH /api/v1/sites/{site_id}); the edit waiting for review and the last outcome. */
const editSection: Section = ({ record, now, csrfToken, edit }) => {
  const s = site(record);
  if (s?.status !== 'live' && s?.status !== 'pending_review') return '';
  const errors = edit?.errors ?? {};
  return html`<section class="panel" id="edit" aria-labelledby="edit-title"><h2 id="edit-title">Suggest an edit</h2>
${s.pending_edit ? html`<p class="notice" id="pending-edit">Your edit is ${describePendingEdit(s.pending_edit)}.</p>` : ''}
${s.last_edit ? html`<p id="last-edit">Last edit ${describeLastEdit(s.last_edit)}.</p>` : ''}
<p class="muted small">${s.status === 'live' ? 'An editor reviews every edit; the public page keeps its current text until then.' : 'An editor reviews every edit, with your tool or after it.'} A new edit replaces one still waiting.</p>
<form method="post" action="${base(record)}/edit">${csrfField(csrfToken)}
<div class="field"><label for="edit-name">New name</label>
<input id="edit-name" type="text" name="name" value="${edit?.name ?? ''}"${errors.name ? html` aria-invalid="true"` : ''}${describedBy(['edit-name-hint', !!errors.name && 'edit-name-error'])}>
<span class="hint" id="edit-name-hint">Now: ${s.name}. Leave empty to keep it.</span>${fieldError('edit-name-error', errors.name)}</div>
<div class="field"><label for="edit-description">New description</label>
<textarea id="edit-description" name="description" rows="4"${errors.description ? html` aria-invalid="true"` : ''}${describedBy(['edit-description-hint', !!errors.description && 'edit-description-error'])}>${edit?.description ?? ''}</textarea>
<span class="hint" id="edit-description-hint">Plain text, up to ${DESCRIPTION_MAX} characters. Leave empty to keep the current one.</span>${fieldError('edit-description-error', errors.description)}</div>
<button type="submit" class="primary" id="suggest-edit">Suggest this edit</button></form></section>`;
};

/** Withdraw the listing (the verb of DELETE /api/v1/sites/{site_id}): a link to a page that asks first. */
const withdrawSection: Section = ({ record }) => {
  if (site(record)?.status !== 'live') return '';
  return html`<section class="panel" id="withdraw" aria-labelledby="withdraw-title"><h2 id="withdraw-title">Withdraw the listing</h2>
<p class="muted small">Takes your tool out of the directory for good: its page will say it is no longer listed. A sponsored plan ends
with the period already paid for. Listing it again later is a new submission.</p>
<p><a class="button" id="withdraw-start" href="${base(record)}/withdraw">Withdraw…</a></p></section>`;
};

/**
 * The last 30 days of the listing's statistics (docs/stats.md): for a live tool, and for one that was live once
 * (taken down, its numbers stay readable). One statement, the read of GET /api/v1/sites/{site_id}/stats.
 */
const statsSection: Section = async ({ record, deps, actor }) => {
  const s = site(record);
  if (!s || !s.history.some((step) => step.status === 'live')) return '';
  return statsChartSection(await getSiteStats({ deps, actor, input: { site_id: s.site_id } }));
};

/** Every status it reached, oldest first, with the reasons meant for the submitter. */
const timelineSection: Section = ({ record }) => {
  const history = site(record)?.history ?? [{ status: 'pending_payment' as const, at: record.submitted_at }];
  return html`<h2>History</h2>
<ol class="timeline" id="timeline">${history.map(
    (step) =>
      html`<li data-status="${step.status}"><time datetime="${step.at}">${formatTime(step.at)}</time> · ${describeStatus(step.status)}${step.reason ? html`: ${step.reason}` : ''}</li>`,
  )}</ol>`;
};

/** The page, top to bottom. */
export const SUBMISSION_SECTIONS: readonly Section[] = [
  statusSection,
  crawledFromSection,
  paymentSection,
  queueSection,
  crawlFailedSection,
  rejectionSection,
  liveSection,
  previewSection,
  siteChangesSection,
  editSection,
  ({ record, csrfToken, mcpChange }) => mcpSection(record, csrfToken, mcpChange),
  withdrawSection,
  statsSection,
  timelineSection,
];

/** The page's body: every section in order. */
export async function submissionBody(view: SubmissionView): Promise<Html> {
  const parts = await Promise.all(SUBMISSION_SECTIONS.map((section) => section(view)));
  return html`${parts}`;
}
