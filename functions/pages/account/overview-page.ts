// GET /account – membership, today's quota use and the account's submissions
import type { Hono } from 'hono';
import type { AppEnv } from '../../types';
import { html } from 'hono/html';
import { getAccountOverview, type SubmissionLine } from '../../../src/accounts/account-overview';
import { formatTime, renderPage } from './layout';
import { describeLastEdit, describePendingEdit, describeQueue, describeStep } from '../../../src/submissions/progress-words';
import { sessionOrRedirect } from './session';
import { connectedAppsSection } from './connected-apps';

const TIER_NAMES = { none: 'No membership', member: 'Member', memberFeature: 'Member (featured)' } as const;

/** Where the submission waits, what it went through and its edits (docs/submission-progress.md); empty for unpaid records. */
function progress(s: SubmissionLine) {
  const queue = s.queue ? html`<div class="queue">Queue: ${describeQueue(s.queue)}</div>` : '';
  const pendingEdit = s.pending_edit ? html`<div class="edit pending">Edit ${describePendingEdit(s.pending_edit)}</div>` : '';
  const lastEdit = s.last_edit ? html`<div class="edit last">Last edit ${describeLastEdit(s.last_edit)}</div>` : '';
  const history = s.history?.length
    ? html`<details class="history"><summary>History</summary><ol>${s.history.map((step) => html`<li>${describeStep(step)}</li>`)}</ol></details>`
    : '';
  return html`${queue}${pendingEdit}${lastEdit}${history}`;
}

function submissionRow(s: SubmissionLine) {
  const link = s.live_url
    ? html`<a href="${s.live_url}">public page</a>`
    : s.checkout_url
      ? html`<a href="${s.checkout_url}" rel="noopener">pay to submit</a> <span class="muted">(until ${formatTime(s.expires_at)})</span>`
      : '';
  return html`<tr data-site-id="${s.site_id}"><td>${s.name}</td><td>${/^https?:\/\//i.test(s.url) ? html`<a href="${s.url}" rel="noopener nofollow">${s.url}</a>` : s.url}</td>
<td>${s.status}${progress(s)}</td><td>${s.plan}</td><td>${formatTime(s.submitted_at)}</td><td>${link}${s.note ? html` <span class="muted">${s.note}</span>` : ''}</td></tr>`;
}

export function register(app: Hono<AppEnv>) {
  app.get('/', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const [o, apps] = await Promise.all([getAccountOverview(c.get('deps'), session.accountId), connectedAppsSection(c.get('deps'), session)]);
    const a = o.account;
    const quota =
      o.quota.daily_limit > 0
        ? html`<p>Today (${o.quota.day}, UTC): <strong id="quota">${o.quota.used_today} of ${o.quota.daily_limit}</strong> submissions covered by your membership used.</p>`
        : html`<p id="quota">Without an active membership every submission is paid per tool (today: ${o.quota.used_today} used).</p>`;
    return renderPage(c, {
      title: 'Your account',
      signedIn: { email: session.email, csrfToken: session.csrfToken },
      body: html`<h2>Membership</h2>
<p>Tier: <strong id="tier">${TIER_NAMES[a.tier]}</strong> · status: <strong id="membership-status">${a.membership_status}</strong>${
        a.current_period_end ? html` · current period ends ${formatTime(a.current_period_end)}` : ''
      }${a.tier !== 'none' && !o.membership_active ? html` <span class="error">not active</span>` : ''}</p>
${quota}
<p><a href="/account/keys">Manage your API keys</a></p>
${apps}
<h2>Your submissions</h2>
${
  o.submissions.length === 0
    ? html`<p class="muted">No submissions yet. Submit a tool with your API key (see <a href="/llms.txt">llms.txt</a>).</p>`
    : html`<table id="submissions"><thead><tr><th>Name</th><th>URL</th><th>Status</th><th>Plan</th><th>Submitted</th><th>Links</th></tr></thead>
<tbody>${o.submissions.map(submissionRow)}</tbody></table>`
}`,
    });
  });
}
