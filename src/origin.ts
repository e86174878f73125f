// Which origin is ours: the one rule behind every link we hand out (checkout return URLs, live_url, llms.txt,
// canonical links, openapi servers) and every origin we check (QStash `sub`, MCP Origin, form CSRF).
// The Host header is never trusted (docs/deploy.md and docs/review-findings.md, "Origins and mail").
import type { Config } from './config';

const LOOPBACK_HOSTNAME = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** localhost, *.localhost, 127.0.0.0/8 and [::1], as `URL.hostname` spells them (IPv6 in brackets). */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAME.test(hostname);
}

/**
 * The origin of a server listening on host:port. The unspecified addresses (0.0.0.0, ::) are not
 * something a browser can open, so they stand for the loopback address of the same family.
 * @example boundOrigin('::', 8787) // 'http://[::1]:8787'
 */
export function boundOrigin(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  const reachable = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '::1' : bare;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * Our origin for one request. SITE_ORIGIN when configured (loadConfig requires it outside local mode).
 * In local mode without it: the request's own origin only when its Host is a loopback name (so both
 * http://localhost:8787 and http://127.0.0.1:8787 work in a browser), else the bound address. A Host naming
 * anything else (a spoofed header, a DNS-rebinding name pointing at this machine) never becomes ours.
 */
export function originForRequest(
  config: Pick<Config, 'local' | 'siteOrigin'>,
  bound: string,
  requestUrl: string,
): string {
  if (config.siteOrigin) return config.siteOrigin;
  if (!config.local) return bound; // unreachable through loadConfig; never fall back to the Host header
  const url = new URL(requestUrl);
  return isLoopbackHostname(url.hostname) ? url.origin : bound;
}
