// GET /account – membership, today's quota use and the account's submissions
import type { Hono } from 'hono';
import type { AppEnv } from '../../types';
import { html } from 'hono/html';
import { getAccountOverview } from '../../../src/accounts/account-overview';
import { formatTime, renderPage } from './layout';
import { sessionOrRedirect } from './session';
import { connectedAppsSection } from './connected-apps';
import { submissionsSection } from './submissions-table';

const TIER_NAMES = { none: 'No membership', member: 'Member', memberFeature: 'Member (featured)' } as const;

export function register(app: Hono<AppEnv>) {
  app.get('/', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const [o, apps] = await Promise.all([getAccountOverview(c.get('deps'), session.accountId), connectedAppsSection(c.get('deps'), session)]);
    const now = c.get('deps').now();
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
${submissionsSection(o.submissions, now)}`,
    });
  });
}
