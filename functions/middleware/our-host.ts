// The DNS-rebinding defence of the endpoints any origin may call (open-cors.ts): the request must be addressed
// to us. A page on a rebinding name (evil.test resolving to this server) sends Host: evil.test with every request,
// so the Host header, unlike Origin, tells a rebound request from a browser-based client calling us by our name.
import type { Context, MiddlewareHandler } from 'hono';
import { isLoopbackHostname } from '../../src/origin';
import type { AppEnv } from '../types';

/**
 * Whether the request's host is ours: the host of deps.origin (SITE_ORIGIN; locally the bound address, or the
 * request's own loopback name, src/origin.ts), or in local mode any loopback name (localhost, 127.x, [::1]).
 * Behind a proxy, the proxy must pass the public Host through (docs/deploy.md "Origins and mail").
 */
export function isAddressedToUs(c: Context<AppEnv>): boolean {
  const deps = c.get('deps');
  const requested = new URL(c.req.url);
  if (requested.host === new URL(deps.origin).host) return true;
  return deps.config.local && isLoopbackHostname(requested.hostname);
}

/** Refuses (with the endpoint's own error shape) every request, preflights included, addressed to another host. */
export function ourHostOnly(refuse: (c: Context<AppEnv>, host: string) => Response): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!isAddressedToUs(c)) return refuse(c, new URL(c.req.url).host);
    await next();
  };
}
