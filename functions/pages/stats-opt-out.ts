// GET and POST /stats/unsubscribe/{token} – the weekly statistics e-mail's opt-out link (docs/stats.md).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { reportMailState, setReportMail } from '../../src/stats/report-opt-out';
import type { AppEnv } from '../types';
import { checkSameOrigin } from './account/csrf';
import { renderPage } from './layout';
import { notFoundPage } from './not-found';
import { pageFormLimit } from './form-limit';

// The token in the path is the capability: random, known only to the mailbox it was sent to, and able only to
// turn this one e-mail off or on. It also stands in for a CSRF token (a forged form would have to know it), on
// top of the same-origin check every form of ours makes. The GET never changes anything: mail scanners open links.

function statePage(c: Context<AppEnv>, token: string, optedOut: boolean, changed: boolean) {
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Weekly statistics e-mail – tooldir',
    description: 'Turn the weekly statistics e-mail off or on.',
    noindex: true,
    body: () => html`<h1>Weekly statistics e-mail</h1>
${changed ? html`<p role="status">Saved.</p>` : ''}
<p>${optedOut ? 'You no longer get the weekly e-mail about your listings.' : 'You get one e-mail a week with the numbers of your live tools.'}</p>
<form method="post" action="/stats/unsubscribe/${token}">
<button type="submit" name="choice" value="${optedOut ? 'resume' : 'stop'}">${optedOut ? 'Send it again' : 'Stop the weekly e-mail'}</button>
</form>`,
  });
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/stats/unsubscribe/:token', async (c) => {
    const state = await reportMailState(c.get('deps'), c.req.param('token'));
    return state ? statePage(c, c.req.param('token'), state.optedOut, false) : notFoundPage(c);
  });
  app.post('/stats/unsubscribe/:token', pageFormLimit, async (c) => {
    await checkSameOrigin(c);
    const body = (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')
      ? await c.req.parseBody()
      : {};
    // A bare POST (RFC 8058 one-click, or a form without a choice) means stop.
    const state = await setReportMail(c.get('deps'), c.req.param('token'), body.choice === 'resume');
    return state ? statePage(c, c.req.param('token'), state.optedOut, true) : notFoundPage(c);
  });
}
