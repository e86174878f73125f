// GET /oauth/authorize – the authorization endpoint (OAuth 2.1 §4.1.1): checks the request, then hands the
// person to the consent page under /account, where the account area's session cookie (Path=/account) is sent.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { checkAuthorizationRequest } from '../../src/oauth/authorization-request';
import { OAUTH_PATHS } from '../../src/oauth/resource';
import { cannotConnectPage } from '../pages/account/consent-page';
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
    // Never a redirect to the client before the person has decided (authorization-request.ts).
    if (!checked.ok) return cannotConnectPage(c, checked);
    return c.redirect(`${CONSENT_PATH}?${query.toString()}`, 302);
  });
}
