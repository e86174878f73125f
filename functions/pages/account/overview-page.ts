// GET /account – membership, today's quota use and the account's submissions
import type { Hono } from 'hono';
import type { AppEnv } from '../../types';
import { html } from 'hono/html';
import { getAccountOverview, type SubmissionLine } from '../../../src/accounts/account-overview';
import { formatTime, renderPage } from './layout';
import { describeLastEdit, describePendingEdit, describeQueue, describeStep } from '../../../src/submissions/progress-words';
import { sessionOrRedirect } from './session';
import { connectedAppsSection } from './connected-apps';
import { getMembershipBilling } from '../../../src/accounts/billing';
import { membershipSection } from './membership-section';

/** Where the submission waits, what it went through and its edits (docs/submission-progress.md); empty for unpaid records. */
function progress(s: SubmissionLine, now: Date) {
  const queue = s.queue ? html`<div class="queue">Queue: ${describeQueue(s.queue, now)}</div>` : '';
  const pendingEdit = s.pending_edit ? html`<div class="edit pending">Edit ${describePendingEdit(s.pending_edit, now)}</div>` : '';
  const lastEdit = s.last_edit ? html`<div class="edit last">Last edit ${describeLastEdit(s.last_edit, now)}</div>` : '';
  const history = s.history?.length
    ? html`<details class="history"><summary>History</summary><ol>${s.history.map((step) => html`<li>${describeStep(step, now)}</li>`)}</ol></details>`
    : '';
  return html`${queue}${pendingEdit}${lastEdit}${history}`;
}

function submissionRow(s: SubmissionLine, now: Date) {
  const link = s.live_url
    ? html`<a href="${s.live_url}">public page</a>`
    : s.checkout_url
      ? html`<a href="${s.checkout_url}" rel="noopener">pay to submit</a> <span class="muted">(until ${formatTime(s.expires_at)})</span>`
      : '';
  return html`<tr data-site-id="${s.site_id}"><td data-label="Name">${s.name}</td><td data-label="URL">${/^https?:\/\//i.test(s.url) ? html`<a href="${s.url}" rel="noopener nofollow">${s.url}</a>` : s.url}</td>
<td data-label="Status">${s.status}${progress(s, now)}</td><td data-label="Plan">${s.plan}</td><td data-label="Submitted">${formatTime(s.submitted_at)}</td><td>${link}${s.note ? html` <span class="muted">${s.note}</span>` : ''}</td></tr>`;
}

export function register(app: Hono<AppEnv>) {
  app.get('/', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const deps = c.get('deps');
    const [o, apps, billing] = await Promise.all([
      getAccountOverview(deps, session.accountId),
      connectedAppsSection(deps, session),
      getMembershipBilling(deps, session.accountId),
    ]);
    const now = deps.now();
    return renderPage(c, {
      title: 'Your account',
      signedIn: { email: session.email, csrfToken: session.csrfToken },
      // "Manage billing" redirects to Stripe's Customer Portal after its POST.
      formActionOrigins: [...deps.payments.hostedOrigins],
      body: html`${membershipSection(o, billing, session.csrfToken, now, deps.config.dailyLimits)}
<p><a href="/account/keys">Manage your API keys</a></p>
${apps}
<h2>Your submissions</h2>
${
  o.submissions.length === 0
    ? html`<p class="muted">No submissions yet. Submit a tool with your API key (see <a href="/llms.txt">llms.txt</a>).</p>`
    : html`<table id="submissions" class="stack"><thead><tr><th>Name</th><th>URL</th><th>Status</th><th>Plan</th><th>Submitted</th><th>Links</th></tr></thead>
<tbody>${o.submissions.map((s) => submissionRow(s, now))}</tbody></table>`
}`,
    });
  });
}
