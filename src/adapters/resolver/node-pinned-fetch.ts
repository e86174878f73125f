// Node-only: a fetch that can only connect to addresses the crawler's address policy accepts.
// The pre-flight check (checkTarget) and the connection would otherwise resolve the name twice, and a
// DNS-rebinding host could answer "public" to the first and "127.0.0.1" to the second. Here the socket's
// own lookup goes through the injected resolver and the same policy, so what is connected is what is checked.
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import ipaddr from 'ipaddr.js';
import { checkAddress, checkAddresses } from '../../pipeline/crawler/address-policy.js';
import { BlockedAddressError } from '../../pipeline/crawler/crawl-failures.js';
import type { Resolver } from './resolver.js';

export interface PinnedFetchOptions {
  resolver: Resolver;
  /** CRAWL_ALLOW_PRIVATE: must match what the crawler is given. */
  allowPrivate: boolean;
}

/**
 * Builds a fetch for `crawlPage` whose every connection (first request and redirects alike) resolves
 * through `resolver` and refuses, with a BlockedAddressError cause, any host with a refused address.
 * Meant for string/URL inputs, as the crawler uses it.
 */
export function createPinnedFetch(options: PinnedFetchOptions): typeof fetch {
  const dispatcher = new Agent({ connect: { lookup: createCheckedLookup(options) } });
  const pinnedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    // IP literals never reach a lookup function: judge them here.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (ipaddr.isValid(host)) {
      const verdict = checkAddress(host, options);
      if (!verdict.allowed) throw new TypeError('fetch failed', { cause: new BlockedAddressError(verdict.reason) });
    }
    const response = await undiciFetch(url, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1]);
    // undici's Response implements the same WHATWG interface as the global one.
    return response as unknown as Response;
  };
  return pinnedFetch as typeof fetch;
}

/** A net.connect lookup that resolves through `resolver` and hands the socket only checked addresses. */
export function createCheckedLookup(options: PinnedFetchOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    options.resolver(hostname).then(
      (addresses) => {
        const verdict = checkAddresses(addresses, options);
        if (!verdict.allowed) {
          callback(new BlockedAddressError(`${hostname} resolves to a refused address: ${verdict.reason}`), '', 0);
          return;
        }
        const wantedFamily = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const entries = addresses
          .map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }))
          .filter((entry) => wantedFamily === 0 || entry.family === wantedFamily);
        const first = entries[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no IPv${wantedFamily} address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (lookupOptions.all) callback(null, entries);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
}
