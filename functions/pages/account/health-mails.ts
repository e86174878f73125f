// POST /account/health-mails – the account page's switch for the health mails (docs/health.md "Mails and the
// opt-out"), with the session's CSRF token; post/redirect/get back to the account page.
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { setHealthMails, type HealthMailChoice } from '../../../src/health/health-mail-choice';
import type { AppEnv } from '../../types';
import { checkSessionCsrf } from './csrf';
import { csrfField } from './layout';
import { readForm, sessionOrRedirect } from './session';

/** The account page's section: what the owner gets now and the one button that flips it. */
export function healthMailsSection(choice: HealthMailChoice, csrfToken: string) {
  return html`<section aria-labelledby="health-mails-title" id="health-mails">
<h2 id="health-mails-title">Website check e-mails</h2>
<p>${
    choice.on
      ? 'You get an e-mail when the daily check of one of your live tools finds its website failing for 3 days, hides or restores its listing, or sees it move to another domain.'
      : 'You get no e-mail about the daily checks of your tools. Webhooks (site.health_changed) are still sent, and your submission pages show each check.'
  }</p>
<form method="post" action="/account/health-mails">${csrfField(csrfToken)}
<button type="submit" name="choice" value="${choice.on ? 'off' : 'on'}">${choice.on ? 'Stop these e-mails' : 'Send these e-mails again'}</button>
</form>
</section>`;
}

export function register(app: Hono<AppEnv>) {
  app.post('/health-mails', async (c) => {
    const session = await sessionOrRedirect(c);
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    await setHealthMails(c.get('deps'), session.accountId, form.choice === 'on');
    return c.redirect('/account#health-mails', 303);
  });
}
