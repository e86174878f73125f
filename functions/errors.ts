import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ServiceError, errorBody, isServiceError } from '../src/errors';
import type { AppEnv } from './types';
import { isDatabaseUnavailable } from '../src/database-unavailable';
import { BODY_LIMIT_TEXT } from '../src/body-limit';

// The error body is built in one place (src/errors.ts errorBody), for REST, MCP and the idempotency replay.
export { errorBody, type ErrorBody } from '../src/errors';

/** A ServiceError as its HTTP response. */
export function errorResponse(c: Context, error: ServiceError): Response {
  if (error.details.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.details.retryAfterSeconds));
  // RFC 9110 §15.5.2 / RFC 6750 §3: a 401 names the scheme it wants.
  if (error.code === 'unauthorized') {
    const sentCredentials = Boolean(c.req.header('authorization'));
    c.header('WWW-Authenticate', `Bearer realm="tooldir"${sentCredentials ? ', error="invalid_token"' : ''}`);
  }
  return c.json(errorBody(error), error.status as ContentfulStatusCode);
}

/** What a caller gets while the database is unavailable: retryable, after 5 s (REST sends it as Retry-After). */
export const serviceUnavailable = () =>
  new ServiceError('service_unavailable', 'The service is temporarily unavailable. Please retry shortly.', {
    retryAfterSeconds: 5,
  });

/** The one onError: service errors render as themselves; anything else is logged and answered generically. */
export function onError(error: Error, c: Context<AppEnv>): Response {
  if (isServiceError(error)) return errorResponse(c, error);
  // Hono and its validators signal client errors with HTTPException: keep them 4xx, in our shape.
  if (error instanceof HTTPException && error.status >= 400 && error.status < 500) {
    if (error.status === 413)
      return errorResponse(
        c,
        new ServiceError('payload_too_large', `The request body is larger than ${BODY_LIMIT_TEXT}.`),
      );
    if (error.status === 401) return errorResponse(c, new ServiceError('unauthorized', 'Authentication is required.'));
    if (error.status === 415)
      return errorResponse(c, new ServiceError('invalid_request', 'Content-Type must be application/json.'));
    if (error.status === 400 && /json/i.test(error.message)) {
      return errorResponse(c, new ServiceError('invalid_json', 'The request body is not valid JSON.'));
    }
    return errorResponse(c, new ServiceError('invalid_request', 'The request is invalid.'));
  }
  const deps = c.get('deps');
  const log = deps?.log;
  const unavailable = isDatabaseUnavailable(error);
  log?.error(unavailable ? 'service unavailable' : 'unhandled error', {
    requestId: c.get('requestId'),
    path: c.req.path,
    err: String(error),
    stack: error.stack?.split('\n').slice(0, 6).join(' | '),
  });
  if (unavailable) return errorResponse(c, serviceUnavailable()); // sets Retry-After from the details
  return errorResponse(c, new ServiceError('internal_error', 'Something went wrong on our side. Please retry later.'));
}
