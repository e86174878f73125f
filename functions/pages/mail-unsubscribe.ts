// GET and POST /mail/unsubscribe/{token} – the one-click unsubscribe link of status mails (docs/account.md "Mail").
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { mailSettingsByToken, setStatusMailByToken } from '../../src/accounts/mail-settings';
import type { AppEnv } from '../types';
import { checkSameOrigin } from './account/csrf';
import { renderPage } from './layout';
import { notFoundPage } from './not-found';
import { pageFormLimit } from './form-limit';

// As for the weekly statistics e-mail (./stats-opt-out.ts): the token in the path is the capability (random, known
// only to the mailbox, able only to turn these mails off or on) and stands in for a CSRF token on top of the
// same-origin check. The GET never changes anything: mail scanners open links. A bare POST is RFC 8058's one click.

function statePage(c: Context<AppEnv>, token: string, statusMail: boolean, changed: boolean) {
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Progress mails – tooldir',
    description: "Turn the mails about your submissions' progress off or on.",
    noindex: true,
    body: () => html`<h1>Progress mails</h1>
${changed ? html`<p role="status" id="saved">Saved.</p>` : ''}
<p id="mail-state" data-status-mail="${statusMail ? 'on' : 'off'}">${
      statusMail
        ? 'You get a mail when your tool is published or rejected.'
        : 'You no longer get mails when your tool is published or rejected.'
    }</p>
<p class="muted">Receipts, refunds and failed crawls are always sent: they are about your money, or need you to act.</p>
<form method="post" action="/mail/unsubscribe/${token}">
<button type="submit" name="choice" value="${statusMail ? 'stop' : 'resume'}">${statusMail ? 'Stop progress mails' : 'Send them again'}</button>
</form>`,
  });
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/mail/unsubscribe/:token', async (c) => {
    const settings = await mailSettingsByToken(c.get('deps'), c.req.param('token'));
    return settings ? statePage(c, settings.token, settings.statusMail, false) : notFoundPage(c);
  });
  app.post('/mail/unsubscribe/:token', pageFormLimit, async (c) => {
    await checkSameOrigin(c);
    const body = (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')
      ? await c.req.parseBody()
      : {};
    const settings = await setStatusMailByToken(c.get('deps'), c.req.param('token'), body.choice === 'resume');
    return settings ? statePage(c, settings.token, settings.statusMail, true) : notFoundPage(c);
  });
}
