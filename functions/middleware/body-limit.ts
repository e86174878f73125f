import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { FORM_LIMIT_BYTES, FORM_LIMIT_TEXT } from '../../src/body-limit';
import { ServiceError } from '../../src/errors';
import type { AppEnv } from '../types';

/**
 * 413 for a body over `maxSize`, checked without touching the body when the request declares its length:
 * Node's and workerd's HTTP parsers never deliver more bytes than Content-Length says, and reading
 * `c.req.raw.body` (what Hono's bodyLimit does first) makes @hono/node-server build a whole web Request and
 * stream for every request (~80 µs of CPU). Chunked or undeclared bodies are counted by Hono's bodyLimit.
 * GET and HEAD bodies are never read by any handler, so they are not checked.
 */
export function declaredBodyLimit(
  maxSize: number,
  onError: (c: Context) => Response | Promise<Response>,
): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined && /^\d+$/.test(length)) {
      return Number(length) > maxSize ? onError(c) : next();
    }
    return counted(c, next);
  };
}

/**
 * FORM_LIMIT_BYTES for a route that reads a form or another small body, checked before the body is read; `refuse`
 * answers the 413 in the area's own shape (a page, an OAuth error). Every route that reads a body has a limit
 * like this one: test/functions/middleware/body-limits-everywhere.test.ts walks the app's routes to hold that.
 */
export function formLimit(refuse: (c: Context<AppEnv>) => Response | Promise<Response>): MiddlewareHandler<AppEnv> {
  return declaredBodyLimit(FORM_LIMIT_BYTES, (c) => refuse(c as Context<AppEnv>));
}

/**
 * The limit of the pages' forms (/account and /submit): a body over FORM_LIMIT_BYTES is a `payload_too_large`
 * ServiceError, which the pages' error handler answers as a page in words.
 */
export const formBodyLimit: MiddlewareHandler<AppEnv> = formLimit(() => {
  throw new ServiceError('payload_too_large', `The form is larger than ${FORM_LIMIT_TEXT}.`);
});
