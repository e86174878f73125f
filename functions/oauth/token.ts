// POST /oauth/token – authorization code exchange and refresh-token rotation (OAuth 2.1 §4.1.3, §4.3)
import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  InvalidClientError,
  InvalidRequestError,
  InvalidTargetError,
  UnsupportedGrantTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { OAUTH_PATHS, isOurResource, mcpResource } from '../../src/oauth/resource';
import { exchangeAuthorizationCode } from '../../src/oauth/token-exchange';
import { refreshTokens } from '../../src/oauth/token-refresh';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { noStore, oauthBodyLimit, oauthErrorResponse, oauthHostOnly, readOAuthForm } from './oauth-response';
import { openCors } from '../middleware/open-cors';

/**
 * Public clients identify themselves with client_id in the body (token_endpoint_auth_method "none"); there is
 * no client secret to check, and a Basic header or a secret is refused rather than ignored.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.use(
    OAUTH_PATHS.token,
    oauthHostOnly,
    openCors,
    oauthBodyLimit((message) => new InvalidRequestError(message)),
  );
  app.post(OAUTH_PATHS.token, async (c) => {
    try {
      await enforceRateLimit(c, 'oauthToken', clientIp(c));
      const form = await readOAuthForm(c);
      if (c.req.header('authorization') || form.has('client_secret')) {
        throw new InvalidClientError('Only public clients are supported here: send client_id alone, with no secret.');
      }
      const clientId = form.get('client_id');
      if (!clientId) throw new InvalidRequestError('client_id is required.');
      const grantType = form.get('grant_type');
      if (grantType === undefined) throw new InvalidRequestError('grant_type is required.');
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw new UnsupportedGrantTypeError('grant_type must be authorization_code or refresh_token.');
      }
      const deps = c.get('deps');
      const resource = requestedResource(form.get('resource'), deps.origin);
      const tokens =
        grantType === 'authorization_code'
          ? await exchangeAuthorizationCode(deps, {
              clientId,
              code: form.get('code'),
              redirectUri: form.get('redirect_uri'),
              codeVerifier: form.get('code_verifier'),
              resource,
            })
          : await refreshTokens(deps, {
              clientId,
              refreshToken: form.get('refresh_token'),
              scope: form.get('scope'),
              resource,
            });
      noStore(c);
      return c.json(tokens);
    } catch (error) {
      return oauthErrorResponse(c, error);
    }
  });
}

/**
 * RFC 8707 here: absent means our /mcp URL (the code or refresh token then keeps the resource it was issued
 * for); present must name it, in any spelling a URL parser reads as the same URL, else invalid_target.
 */
function requestedResource(value: string | undefined, origin: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isOurResource(value, origin))
    throw new InvalidTargetError(
      `resource must be ${mcpResource(origin)}, the only resource this server issues tokens for.`,
    );
  return mcpResource(origin);
}
