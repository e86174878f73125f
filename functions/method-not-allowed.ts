import type { Context } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ServiceError } from '../src/errors';
import { errorResponse } from './errors';
import type { AppEnv } from './types';

/**
 * The fallback for unmatched requests: a known path with another method is 405 with `Allow`;
 * anything else under /api is 404 not_found in the error shape; other paths get the page 404.
 */
export function createFallback(
  app: OpenAPIHono<AppEnv>,
  pageNotFound: (c: Context<AppEnv>) => Response | Promise<Response>,
) {
  let table: Array<{ pattern: RegExp; methods: Set<string> }> | undefined;
  const routeTable = () => {
    if (table) return table;
    const byPath = new Map<string, Set<string>>();
    for (const route of app.routes) {
      if (route.method === 'ALL' || route.path.includes('*')) continue;
      const methods = byPath.get(route.path) ?? new Set<string>();
      methods.add(route.method.toUpperCase());
      if (route.method.toUpperCase() === 'GET') methods.add('HEAD');
      byPath.set(route.path, methods);
    }
    table = [...byPath].map(([path, methods]) => ({
      // Exact like the router: `/api/v1/sites/` is not `/api/v1/sites` and falls to the 404 branch.
      pattern: new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}$`),
      methods,
    }));
    return table;
  };

  return (c: Context<AppEnv>) => {
    const allowed = new Set<string>();
    for (const { pattern, methods } of routeTable())
      if (pattern.test(c.req.path)) methods.forEach((m) => allowed.add(m));
    if (allowed.size > 0) {
      c.header('Allow', [...allowed].sort().join(', '));
      return errorResponse(
        c,
        new ServiceError(
          'method_not_allowed',
          `${c.req.method} is not allowed on ${c.req.path}. Allowed: ${[...allowed].sort().join(', ')}.`,
        ),
      );
    }
    if (c.req.path === '/api' || c.req.path.startsWith('/api/')) {
      return errorResponse(c, new ServiceError('not_found', `No endpoint at ${c.req.path}.`));
    }
    return pageNotFound(c);
  };
}
