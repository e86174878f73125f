import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../../src/deps';
import { originForRequest } from '../../src/origin';
import type { AppEnv } from '../types';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * Binds the request to the app: an X-Request-Id (the caller's if well-formed), deps whose `origin` is ours
 * for this request (src/origin.ts: SITE_ORIGIN or the bound address, never a Host header's name), and `defer`
 * mapped to waitUntil where the runtime has one.
 */
export function requestContext(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('requestId', requestId);
    c.header('X-Request-Id', requestId);
    let waitUntil: ((p: Promise<unknown>) => void) | undefined;
    try {
      const ctx = c.executionCtx;
      waitUntil = (p) => ctx.waitUntil(p);
    } catch {
      waitUntil = undefined; // Node: no execution context; the process outlives the response anyway.
    }
    c.set('deps', {
      ...deps,
      origin: originForRequest(deps.config, deps.origin, c.req.url),
      defer: (work) => {
        const guarded = work.catch((error: unknown) =>
          deps.log.error('deferred work failed', { requestId, err: String(error) }),
        );
        waitUntil?.(guarded);
      },
    });
    await next();
  };
}

/** Conservative headers for every response; pages set their own CSP on top. */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  c.header('X-Frame-Options', 'DENY');
  if (!c.res.headers.has('Content-Security-Policy')) {
    c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  }
};
