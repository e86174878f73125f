// POST /oauth/register – Dynamic Client Registration (RFC 7591) for public clients, limited per client IP
import type { OpenAPIHono } from '@hono/zod-openapi';
import { InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { registerClient } from '../../src/oauth/clients';
import { OAUTH_PATHS } from '../../src/oauth/resource';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';
import { noStore, oauthBodyLimit, oauthErrorResponse, oauthHostOnly } from './oauth-response';
import { openCors } from '../middleware/open-cors';

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

export function register(app: OpenAPIHono<AppEnv>) {
  app.use(
    OAUTH_PATHS.register,
    oauthHostOnly,
    openCors,
    oauthBodyLimit((message) => new InvalidClientMetadataError(message)),
  );
  app.post(OAUTH_PATHS.register, async (c) => {
    try {
      // The limiter decides before anything is parsed or written (docs/bench.md, "Limits before work").
      await enforceRateLimit(c, 'oauthRegister', clientIp(c));
      if (!JSON_TYPE.test(c.req.header('content-type') ?? ''))
        throw new InvalidClientMetadataError('Content-Type must be application/json.');
      const text = await c.req.text(); // bounded by oauthBodyLimit above
      let metadata: unknown;
      try {
        metadata = JSON.parse(text);
      } catch {
        throw new InvalidClientMetadataError('The request body is not valid JSON.');
      }
      const registration = await registerClient(c.get('deps'), metadata);
      noStore(c);
      return c.json(registration, 201);
    } catch (error) {
      return oauthErrorResponse(c, error);
    }
  });
}
