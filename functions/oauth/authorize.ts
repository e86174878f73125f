// GET /oauth/authorize – the authorization endpoint (OAuth 2.1 §4.1.1): checks the request, then hands the
// person to the consent page under /account, where the account area's session cookie (Path=/account) is sent.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { checkAuthorizationRequest } from '../../src/oauth/authorization-request';
import { OAUTH_PATHS } from '../../src/oauth/resource';
import { renderPage } from '../pages/account/layout';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';

export const CONSENT_PATH = '/account/authorize';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get(OAUTH_PATHS.authorize, async (c) => {
    // Before the check: a metadata-document client_id may cost an outbound fetch (client-metadata-document.ts).
    await enforceRateLimit(c, 'public', clientIp(c));
    const query = new URL(c.req.url).searchParams;
    const checked = await checkAuthorizationRequest(c.get('deps'), query);
    if (!checked.ok && checked.kind === 'redirect') return c.redirect(checked.location, 302);
    if (!checked.ok) {
      return renderPage(c, {
        title: 'This app cannot connect',
        status: 400,
        body: html`<p class="error" role="alert">${checked.message}</p><p>Nothing was shared. Close this page and tell the app's maker.</p>`,
      });
    }
    return c.redirect(`${CONSENT_PATH}?${query.toString()}`, 302);
  });
}
