// GET /account – membership, today's quota use and the account's submissions
import type { Hono } from 'hono';
import type { AppEnv } from '../../types';
import { html } from 'hono/html';
import { getAccountOverview } from '../../../src/submissions/account-overview';
import { renderPage } from './layout';
import { sessionOrRedirect } from './session';
import { connectedAppsSection } from './connected-apps';
import { submissionsSection } from './submissions-table';
import { getMembershipBilling } from '../../../src/accounts/billing';
import { membershipSection } from './membership-section';
import { healthMailsOf } from '../../../src/health/health-mail-choice';
import { healthMailsSection } from './health-mails';

export function register(app: Hono<AppEnv>) {
  app.get('/', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const deps = c.get('deps');
    const [o, apps, billing, healthMails] = await Promise.all([
      getAccountOverview(deps, session.accountId),
      connectedAppsSection(deps, session),
      getMembershipBilling(deps, session.accountId),
      healthMailsOf(deps, session.accountId),
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
${submissionsSection(o.submissions, now)}
${healthMailsSection(healthMails, session.csrfToken)}`,
    });
  });
}
