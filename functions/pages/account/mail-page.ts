// GET and POST /account/mail – the account's mail setting: progress mails on or off (docs/account.md "Mail").
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { readMailSettings, setStatusMail } from '../../../src/accounts/mail-settings';
import type { AppEnv } from '../../types';
import { checkSessionCsrf } from './csrf';
import { csrfField, renderPage } from './layout';
import { readForm, sessionOrRedirect } from './session';

export function register(app: Hono<AppEnv>) {
  app.get('/mail', async (c) => {
    const session = await sessionOrRedirect(c, '/account/mail');
    if (session instanceof Response) return session;
    const settings = await readMailSettings(c.get('deps'), session.accountId);
    return renderPage(c, {
      title: 'Mail',
      signedIn: { email: session.email, csrfToken: session.csrfToken },
      narrow: true,
      body: html`<p><a href="/account">← Your account</a></p>
${c.req.query('saved') !== undefined ? html`<p role="status" id="saved">Saved.</p>` : ''}
<form method="post" action="/account/mail">${csrfField(session.csrfToken)}
<fieldset class="field"><legend>Mails about your submissions, to ${session.email} (or the address given with a submission)</legend>
<label for="status-mail"><input type="checkbox" id="status-mail" name="status_mail" value="on"${settings.statusMail ? ' checked' : ''}>
<span>Progress: when a tool is published, or rejected without a refund</span></label>
<p class="hint">Always sent, whatever this says: receipts, refunds, and a crawl that failed (you need to fix the address or the site). Each progress mail also has a link that turns them off in one click.</p>
</fieldset>
<div class="actions"><button type="submit" class="primary" id="save-mail">Save</button></div>
</form>`,
    });
  });
  app.post('/mail', async (c) => {
    const session = await sessionOrRedirect(c, '/account/mail');
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    await setStatusMail(c.get('deps'), session.accountId, form.status_mail === 'on');
    return c.redirect('/account/mail?saved', 303);
  });
}
