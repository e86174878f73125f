// The wire format of the OAuth endpoints: RFC 6749 §5.2 error JSON (not the REST error body), no caching of
// anything that carries a token, and the Host check of the endpoints a browser-based client calls directly.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  InvalidRequestError,
  OAuthError,
  ServerError,
  TemporarilyUnavailableError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { isServiceError } from '../../src/errors';
import { ourHostOnly } from '../middleware/our-host';
import { formLimit } from '../middleware/body-limit';
import type { AppEnv } from '../types';
import { FORM_LIMIT_TEXT } from '../../src/body-limit';

/** RFC 6749 §5.2: invalid_client is 401; every other error of the token family is 400. */
const STATUS: Record<string, ContentfulStatusCode> = {
  invalid_client: 401,
  temporarily_unavailable: 503,
  server_error: 500,
  too_many_requests: 429,
};

/** Answers any error thrown by an OAuth endpoint in the RFC 6749 JSON shape. */
export function oauthErrorResponse(c: Context<AppEnv>, error: unknown): Response {
  let oauth: OAuthError;
  let status: ContentfulStatusCode;
  if (error instanceof OAuthError) {
    oauth = error;
    status = STATUS[error.errorCode] ?? 400;
  } else if (isServiceError(error) && error.code === 'rate_limited') {
    if (error.details.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.details.retryAfterSeconds));
    oauth = new TemporarilyUnavailableError(error.message);
    status = 429;
  } else if (isServiceError(error) && error.status < 500) {
    oauth = new InvalidRequestError(error.message);
    status = 400;
  } else {
    c.get('deps').log.error('oauth endpoint failed', {
      requestId: c.get('requestId'),
      path: c.req.path,
      err: String(error),
    });
    oauth = new ServerError('Something went wrong on our side. Please retry later.');
    status = 500;
  }
  if (status === 401) c.header('WWW-Authenticate', clientChallenge(c));
  noStore(c);
  return c.json(oauth.toResponseObject(), status);
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Every 401 carries a challenge (RFC 9110 §15.5.2). RFC 6749 §5.2: the scheme the client tried in its
 * Authorization header, else Basic, the scheme RFC 6749 defines for client credentials. Either way the answer
 * body says the truth: clients here are public and send client_id alone.
 */
function clientChallenge(c: Context<AppEnv>): string {
  const scheme = c.req.header('authorization')?.trim().split(/\s+/)[0];
  return `${scheme && TOKEN.test(scheme) ? scheme : 'Basic'} realm="tooldir"`;
}

/** RFC 6749 §5.1: responses carrying tokens must not be stored. */
export function noStore(c: Context): void {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
}

/** The DNS-rebinding defence of the OAuth endpoints any origin may call (middleware/our-host.ts), in their error shape. */
export const oauthHostOnly = ourHostOnly((c, host) => {
  noStore(c);
  return c.json(
    new InvalidRequestError(`This endpoint answers requests for its own host, not ${host}.`).toResponseObject(),
    403,
  );
});

const FORM = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * The body limit of the OAuth endpoints (token, revoke, register), checked before the body is read: 413 in the
 * RFC 6749 error shape, `error` as the endpoint names it (register's is invalid_client_metadata, RFC 7591 §3.2.2).
 */
export const oauthBodyLimit = (error: (message: string) => OAuthError) =>
  formLimit((c) => {
    noStore(c);
    return c.json(error(`The request body is larger than ${FORM_LIMIT_TEXT}.`).toResponseObject(), 413);
  });

/**
 * The form body of a token or revocation request (RFC 6749 §4.1.3 / RFC 7009 §2.1). A parameter given twice
 * is refused (RFC 6749 §3.2), so no layer can pick a different copy than another.
 */
export async function readOAuthForm(c: Context<AppEnv>): Promise<Map<string, string>> {
  if (!FORM.test(c.req.header('content-type') ?? ''))
    throw new InvalidRequestError('Content-Type must be application/x-www-form-urlencoded.');
  // Bounded by oauthBodyLimit, which the route runs before this reads anything.
  const params = new URLSearchParams(await c.req.text());
  const form = new Map<string, string>();
  for (const [name, value] of params) {
    if (form.has(name)) throw new InvalidRequestError(`${name} is given more than once.`);
    form.set(name, value);
  }
  return form;
}
