// POST /oauth/revoke – token revocation (RFC 7009) for public clients
import type { OpenAPIHono } from '@hono/zod-openapi';
import { InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { revokeToken } from '../../src/oauth/grants';
import { OAUTH_PATHS } from '../../src/oauth/resource';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { noStore, oauthBodyLimit, oauthErrorResponse, oauthHostOnly, readOAuthForm } from './oauth-response';
import { openCors } from '../middleware/open-cors';

export function register(app: OpenAPIHono<AppEnv>) {
  app.use(
    OAUTH_PATHS.revoke,
    oauthHostOnly,
    openCors,
    oauthBodyLimit((message) => new InvalidRequestError(message)),
  );
  app.post(OAUTH_PATHS.revoke, async (c) => {
    try {
      await enforceRateLimit(c, 'oauthToken', clientIp(c));
      const form = await readOAuthForm(c);
      const clientId = form.get('client_id');
      if (!clientId) throw new InvalidRequestError('client_id is required.');
      if (!form.get('token')) throw new InvalidRequestError('token is required.');
      // token_type_hint is optional and only a hint (RFC 7009 §2.1): the token's own prefix says what it is.
      await revokeToken(c.get('deps'), { clientId, token: form.get('token') });
      noStore(c);
      return c.body(null, 200);
    } catch (error) {
      return oauthErrorResponse(c, error);
    }
  });
}
