// GET and POST /health-mails/{token} – the health mails' opt-out link and List-Unsubscribe target (docs/health.md
// "Mails and the opt-out"). As /stats/unsubscribe/{token}: the token is the capability (it stands in for a CSRF
// token, on top of the same-origin check), the GET never changes anything (mail scanners open links), and a bare
// POST is RFC 8058's one-click unsubscribe.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { healthMailsByToken, setHealthMailsByToken } from '../../src/health/health-mail-choice';
import type { AppEnv } from '../types';
import { checkSameOrigin } from './account/csrf';
import { renderPage } from './layout';
import { notFoundPage } from './not-found';
import { pageFormLimit } from './form-limit';

function statePage(c: Context<AppEnv>, token: string, on: boolean, changed: boolean) {
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Website check e-mails – tooldir',
    description: 'Turn the e-mails about the daily check of your tools off or on.',
    noindex: true,
    body: () => html`<h1>Website check e-mails</h1>
${changed ? html`<p role="status">Saved.</p>` : ''}
<p>${on ? 'You get an e-mail when the daily check of one of your tools finds a problem, and when it is over.' : 'You no longer get e-mails about the daily checks of your tools. Webhooks are still sent.'}</p>
<form method="post" action="/health-mails/${token}">
<button type="submit" name="choice" value="${on ? 'stop' : 'resume'}">${on ? 'Stop these e-mails' : 'Send them again'}</button>
</form>`,
  });
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/health-mails/:token', async (c) => {
    const choice = await healthMailsByToken(c.get('deps'), c.req.param('token'));
    return choice ? statePage(c, c.req.param('token'), choice.on, false) : notFoundPage(c);
  });
  app.post('/health-mails/:token', pageFormLimit, async (c) => {
    await checkSameOrigin(c);
    const body = (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')
      ? await c.req.parseBody()
      : {};
    const choice = await setHealthMailsByToken(c.get('deps'), c.req.param('token'), body.choice === 'resume');
    return choice ? statePage(c, c.req.param('token'), choice.on, true) : notFoundPage(c);
  });
}
