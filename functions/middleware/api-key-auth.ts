import type { MiddlewareHandler } from 'hono';
import { authenticateKey } from '../../src/accounts/api-keys';
import { ServiceError } from '../../src/errors';
import type { AppEnv } from '../types';

/** Query parameters that would carry a credential in a URL: refused wherever a bearer credential is read. */
export const QUERY_KEY_PARAMS = ['key', 'api_key', 'apikey', 'token', 'access_token'];

/** Reads `Authorization: Bearer <credential>` (RFC 6750 §2.1): the one parser for API keys, operator and job tokens and MCP's OAuth tokens. Other schemes give undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/** Requires a valid API key and sets the actor. */
export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Parsing the URL costs ~5 µs; most API requests have no query string at all.
  const url = c.req.url;
  const params = url.includes('?') ? new URL(url).searchParams : undefined;
  if (params && QUERY_KEY_PARAMS.some((p) => params.has(p))) {
    throw new ServiceError('unauthorized', 'API keys are accepted only in the Authorization header, never in the URL.');
  }
  c.set('actor', await authenticateKey(c.get('deps'), bearerToken(c.req.header('authorization'))));
  await next();
};
