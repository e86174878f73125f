// GET and POST /account/submissions/{site_id}/withdraw – the submission page's "Withdraw…" asks first, then runs the
// verb of DELETE /api/v1/sites/{site_id} with the session's CSRF token (post/redirect/get). Works without JavaScript.
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { actorForWebSession } from '../../../src/accounts/actor';
import { ServiceError } from '../../../src/errors';
import { getSubmission } from '../../../src/submissions/get';
import { withdrawSite } from '../../../src/submissions/withdraw';
import { announceWebhookEvents } from '../../../src/webhooks/announce';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { checkSessionCsrf } from './csrf';
import { csrfField, renderPage } from './layout';
import { readForm, sessionOrRedirect } from './session';
import { submissionPage } from './submission-page';

const pagePath = (siteId: string) => `/account/submissions/${siteId}`;

export function register(app: Hono<AppEnv>) {
  app.get('/submissions/:id/withdraw', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    await enforceRateLimit(c, 'read', session.accountId);
    const siteId = c.req.param('id');
    const record = await getSubmission({ deps: c.get('deps'), actor: actorForWebSession(session), input: { siteId } });
    // Nothing to confirm for a listing that is not live: its page says where it stands.
    if (record.status !== 'live') return c.redirect(pagePath(siteId), 303);
    return renderPage(c, {
      title: `Withdraw ${record.name}?`,
      signedIn: { email: session.email, csrfToken: session.csrfToken },
      narrow: true,
      body: html`<p><a href="${pagePath(siteId)}">← Back to ${record.name}</a></p>
<div class="panel">
<p>This takes <strong>${record.name}</strong> out of the directory for good:</p>
<ul>
<li>its page will answer that it is no longer listed, and it leaves search, the categories and the sitemap;</li>
<li>a sponsored plan is cancelled at the end of the period already paid for (no refund);</li>
<li>its statistics stay readable on its submission page;</li>
<li>listing it again later is a new submission.</li>
</ul>
<form method="post" action="${pagePath(siteId)}/withdraw">${csrfField(session.csrfToken)}
<p class="actions"><button type="submit" class="danger" id="withdraw-confirm">Yes, withdraw it</button>
<a class="button" id="withdraw-cancel" href="${pagePath(siteId)}">Keep it listed</a></p></form>
</div>`,
    });
  });

  app.post('/submissions/:id/withdraw', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    const siteId = c.req.param('id');
    const deps = c.get('deps');
    await enforceRateLimit(c, 'submit', session.accountId);
    try {
      await withdrawSite({ deps, actor: actorForWebSession(session), input: { site_id: siteId } });
    } catch (error) {
      // A listing that is no longer live (an editor took it down meanwhile): its page, with the reason on top.
      if (error instanceof ServiceError && error.code === 'invalid_state')
        return submissionPage(c, session, siteId, { error });
      throw error;
    }
    deps.defer(announceWebhookEvents(deps));
    return c.redirect(`${pagePath(siteId)}#withdrawn`, 303);
  });
}
