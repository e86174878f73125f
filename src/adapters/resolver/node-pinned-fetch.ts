// Node-only: a fetch that can only connect to addresses a given policy accepts (the crawler's: see
// src/crawler/pinned-fetch.ts, which passes src/crawler/address-policy.ts in).
// The pre-flight check (checkTarget) and the connection would otherwise resolve the name twice, and a
// DNS-rebinding host could answer "public" to the first and "127.0.0.1" to the second. Here the socket's
// own lookup goes through the injected resolver and the same policy, so what is connected is what is checked.
import type { LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import ipaddr from 'ipaddr.js';
import type { Resolver } from './resolver';

/** Whether one address may be connected to, and if not, why. */
export type AddressCheck = (address: string) => { allowed: true } | { allowed: false; reason: string };

export interface PinnedFetchOptions {
  resolver: Resolver;
  /** The address policy; every address a host resolves to must pass it. */
  checkAddress: AddressCheck;
  /** The error a refused connection fails with (as the `cause` of fetch's TypeError, or the lookup's error). */
  refused: (reason: string) => Error;
}

let undici: Promise<typeof import('undici')> | undefined;
/** undici is a megabyte of JavaScript that only a crawl or a webhook delivery needs: loaded by the first, not at start. */
const loadUndici = () => (undici ??= import('undici'));

/**
 * Builds a fetch for `crawlPage` whose every connection (first request and redirects alike) resolves
 * through `resolver` and refuses, with a `refused(reason)` cause, any host with a refused address.
 * Meant for string/URL inputs, as the crawler uses it.
 */
export function createPinnedFetch(options: PinnedFetchOptions): typeof fetch {
  let dispatcher: Agent | undefined;
  const pinnedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    // IP literals never reach a lookup function: judge them here.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (ipaddr.isValid(host)) {
      const verdict = options.checkAddress(host);
      if (!verdict.allowed) throw new TypeError('fetch failed', { cause: options.refused(verdict.reason) });
    }
    const { Agent, fetch: undiciFetch } = await loadUndici();
    dispatcher ??= new Agent({ connect: { lookup: createCheckedLookup(options) } });
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
        const refusal =
          addresses.length === 0
            ? 'the host has no addresses'
            : addresses.map((address) => options.checkAddress(address)).find((verdict) => !verdict.allowed)?.reason;
        if (refusal !== undefined) {
          callback(options.refused(`${hostname} resolves to a refused address: ${refusal}`), '', 0);
          return;
        }
        const wantedFamily = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const entries = addresses
          .map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }))
          .filter((entry) => wantedFamily === 0 || entry.family === wantedFamily);
        const first = entries[0];
        if (!first) {
          callback(
            Object.assign(new Error(`${hostname} has no IPv${wantedFamily} address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
          return;
        }
        if (lookupOptions.all) callback(null, entries);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
}
