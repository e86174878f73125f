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

const SECURITY_HEADERS = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
] as const;
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Conservative headers for every response; pages set their own CSP on top. They are set before the handler
 * runs, so the response is created with them: a header set on a finished response makes Hono rebuild it around
 * its body stream, which on Node turns @hono/node-server's fast path (a string body written at once) into a
 * stream read (~60 µs of CPU per request, docs/bench.md "Reads against the bare floor"). A response a handler
 * built itself (not through `c.*`) does not carry them yet and gets them afterwards.
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  c.header('Content-Security-Policy', DEFAULT_CSP);
  await next();
  // Reading c.res.headers does not rebuild the response; only the rare response without them pays for it.
  const headers = c.res.headers;
  if (headers.get('X-Content-Type-Options') === null)
    for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  if (!headers.has('Content-Security-Policy')) c.header('Content-Security-Policy', DEFAULT_CSP);
};
