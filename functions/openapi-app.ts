import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Handler, MiddlewareHandler } from 'hono';
import { runsAfterValidation } from './middleware/after-validation';
import type { AppEnv } from './types';

/**
 * The OpenAPIHono the service runs on. A route declares everything that runs around its handler in `middleware`, in
 * order: authentication and body reading run before the route's schema validation (as @hono/zod-openapi runs them),
 * the middleware marked `afterValidation` at the end of the list (the rate limit) after it, right before the handler.
 * @example
 * createRoute({ ..., middleware: [requireApiKey, jsonObjectBody, rateLimit('submit')] as const });
 * // runs requireApiKey, jsonObjectBody, the body's schema, rateLimit('submit'), then the handler
 */
export class OpenApiApp extends OpenAPIHono<AppEnv> {
  constructor(init?: ConstructorParameters<typeof OpenAPIHono<AppEnv>>[0]) {
    super(init);
    const register = this.openapi;
    this.openapi = ((route: RouteConfig, handler: Handler<AppEnv>, hook?: Parameters<typeof register>[2]) => {
      const declared = [route.middleware ?? []].flat() as MiddlewareHandler<AppEnv>[];
      const firstLate = declared.findIndex(runsAfterValidation);
      if (firstLate === -1) return register(route, handler, hook);
      const late = declared.slice(firstLate);
      if (!late.every(runsAfterValidation)) {
        throw new Error(
          `${route.method.toUpperCase()} ${route.path}: middleware that runs after validation goes at the end of the list`,
        );
      }
      // Composed as Hono composes middleware: each calls next() to go on; one that answers (or throws) ends the chain.
      const validatedHandler: Handler<AppEnv> = async (c, next) => {
        let answer: Response | undefined;
        const run = async (i: number): Promise<void> => {
          if (i === late.length) {
            answer = await handler(c, next);
            return;
          }
          const early = await late[i]!(c, () => run(i + 1));
          if (early instanceof Response) answer = early;
        };
        await run(0);
        return answer ?? c.res;
      };
      return register({ ...route, middleware: declared.slice(0, firstLate) }, validatedHandler, hook);
    }) as typeof register;
  }
}
