// The pre-flight decision for one URL (the first request and every redirect hop): shape, port, name, addresses.
import ipaddr from 'ipaddr.js';
import type { Resolver } from '../adapters/resolver/resolver';
import { abortable } from './abortable';
import { checkAddress, checkAddresses } from './address-policy';
import { crawlFailure, type CrawlFailure } from './crawl-result';

export interface CheckTargetOptions {
  resolver: Resolver;
  /** CRAWL_ALLOW_PRIVATE: loopback/private targets and any port are allowed. Default false. */
  allowPrivate?: boolean;
  signal?: AbortSignal;
}

export type TargetDecision =
  | { ok: true; url: URL; hostname: string; addresses: string[] }
  | { ok: false; error: CrawlFailure };

const ALLOWED_PORTS = new Set([80, 443]);
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Decides whether `url` may be fetched: http(s) only, no credentials, ports 80/443 (any with allowPrivate),
 * no localhost names, and EVERY address the host resolves to must pass the address policy.
 * IP literals are judged directly (WHATWG URL parsing has already turned 2130706433, 0177.0.0.1, 0x7f.1
 * and 127.1 into 127.0.0.1); the resolver is never asked about them.
 */
export async function checkTarget(url: string | URL, options: CheckTargetOptions): Promise<TargetDecision> {
  const allowPrivate = options.allowPrivate ?? false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return crawlFailure('bad_url', `not a valid URL: ${String(url).slice(0, 200)}`);
  }
  const defaultPort = DEFAULT_PORTS[parsed.protocol];
  if (defaultPort === undefined)
    return crawlFailure('bad_url', `only http and https URLs are crawled, not ${parsed.protocol}`);
  if (parsed.username || parsed.password) return crawlFailure('bad_url', 'URLs with credentials are not crawled');
  const port = parsed.port ? Number(parsed.port) : defaultPort;
  // A refused address is the truer reason than a refused port (127.0.0.1:8080 is "not public"), so the
  // host is judged first; the port is still refused before any DNS lookup.
  const portRefusal =
    !allowPrivate && !ALLOWED_PORTS.has(port)
      ? crawlFailure('blocked_port', `port ${port} is not allowed (only 80 and 443)`)
      : null;

  const hostname = parsed.hostname.replace(/\.+$/, '');
  if (!hostname) return crawlFailure('bad_url', 'the URL has no host');
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(literal)) {
    const verdict = checkAddress(literal, { allowPrivate });
    if (!verdict.allowed) return crawlFailure('blocked_address', verdict.reason);
    return portRefusal ?? { ok: true, url: parsed, hostname: literal, addresses: [literal] };
  }
  if (!allowPrivate && (hostname === 'localhost' || hostname.endsWith('.localhost'))) {
    return crawlFailure('blocked_address', `${hostname} is a loopback name`);
  }
  if (portRefusal) return portRefusal;

  let addresses: string[];
  try {
    addresses = await abortable(options.resolver(hostname, options.signal), options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw error; // the caller's deadline decides how to report it
    return crawlFailure('dns_error', `could not resolve ${hostname}: ${describe(error)}`);
  }
  if (addresses.length === 0) return crawlFailure('dns_error', `${hostname} has no addresses`);
  const verdict = checkAddresses(addresses, { allowPrivate });
  if (!verdict.allowed)
    return crawlFailure('blocked_address', `${hostname} resolves to a refused address: ${verdict.reason}`);
  return { ok: true, url: parsed, hostname, addresses };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
