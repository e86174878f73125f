// The "Your submissions" section of /account: one row per submission, its name leading to its own page
// (/account/submissions/{site_id}), where the history, payment, retry and edits are.
import { html } from 'hono/html';
import type { SubmissionLine } from '../../../src/submissions/account-overview';
import {
  describeLastEdit,
  describePendingEdit,
  describeQueue,
  describeStatus,
} from '../../../src/submissions/progress-words';
import { formatTime } from './layout';

/** Where the submission waits and its edits, in the words of its page (docs/submission-progress.md). */
function progress(s: SubmissionLine, now: Date) {
  const queue = s.queue ? html`<div class="queue small">${describeQueue(s.queue)}</div>` : '';
  const pendingEdit = s.pending_edit
    ? html`<div class="edit pending small">Edit ${describePendingEdit(s.pending_edit)}</div>`
    : '';
  const lastEdit = s.last_edit
    ? html`<div class="edit last small">Last edit ${describeLastEdit(s.last_edit)}</div>`
    : '';
  return html`${queue}${pendingEdit}${lastEdit}`;
}

/** What the person can do next from the list: pay, or open the public page. */
function nextStep(s: SubmissionLine) {
  const link = s.live_url
    ? html`<a href="${s.live_url}">Public page</a>`
    : s.checkout_url
      ? html`<a href="${s.checkout_url}">Pay now</a> <span class="muted small">(until ${formatTime(s.expires_at)})</span>`
      : '';
  return html`${link}${s.note ? html`${link ? ' ' : ''}<span class="muted">${s.note}</span>` : ''}`;
}

// The plan cell is one short word (class "word"): the page breaks long text anywhere so tables fit 390 px, which
// would otherwise split "sponsored" at 1280 px; names and URLs keep breaking.
function submissionRow(s: SubmissionLine, now: Date) {
  const next = s.live_url || s.checkout_url || s.note ? nextStep(s) : undefined;
  return html`<tr data-site-id="${s.site_id}"><td data-label="Name"><a href="/account/submissions/${s.site_id}">${s.name}</a></td>
<td data-label="Website">${/^https?:\/\//i.test(s.url) ? html`<a href="${s.url}" rel="noopener nofollow">${s.url}</a>` : s.url}</td>
<td data-label="Status"><span class="status ${s.status}" data-status="${s.status}">${describeStatus(s.status)}</span>${progress(s, now)}</td>
<td data-label="Plan" class="word">${s.plan}</td><td data-label="Submitted">${formatTime(s.submitted_at)}</td>${next ? html`<td data-label="Next">${next}</td>` : html`<td></td>`}</tr>`;
}

/** The account's submissions (newest first, as getAccountOverview reads them), or how to make the first one. */
export function submissionsSection(submissions: readonly SubmissionLine[], now: Date) {
  return html`<h2>Your submissions</h2>
${
  submissions.length === 0
    ? html`<p class="muted" id="no-submissions">No submissions yet. <a href="/submit">Submit a tool</a>.</p>`
    : html`<table id="submissions" class="stack"><thead><tr><th>Name</th><th>Website</th><th>Status</th><th>Plan</th><th>Submitted</th><th>Next</th></tr></thead>
<tbody>${submissions.map((s) => submissionRow(s, now))}</tbody></table>`
}`;
}
