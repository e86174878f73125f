import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../types';

const marked = new WeakSet<MiddlewareHandler<AppEnv>>();

/**
 * Marks a middleware that a route declares for a request whose input is already valid: it runs after the route's
 * schema validation, right before the handler (functions/openapi-app.ts). @hono/zod-openapi runs a route's
 * `middleware` before its validators, which authentication needs (401 comes first); a rate limit does not: a request
 * the schema refuses is answered 400 and counts against no bucket. Marked middleware goes at the end of the list.
 */
export function afterValidation(middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  marked.add(middleware);
  return middleware;
}

/** True for a middleware marked by afterValidation. */
export const runsAfterValidation = (middleware: unknown): boolean =>
  marked.has(middleware as MiddlewareHandler<AppEnv>);
