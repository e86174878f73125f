// The Node crawler's fetch: the pinned-fetch adapter (src/adapters/resolver/node-pinned-fetch.ts) given the
// crawler's address policy, so the address that is checked is the address that is connected to, and a refused
// one fails as a BlockedAddressError (reported to submitters as blocked_address).
import {
  createCheckedLookup as createLookup,
  createPinnedFetch as createFetch,
} from '../adapters/resolver/node-pinned-fetch';
import type { Resolver } from '../adapters/resolver/resolver';
import { checkAddress, type AddressPolicyOptions } from './address-policy';
import { BlockedAddressError } from './crawl-failures';

export interface CrawlerFetchOptions extends AddressPolicyOptions {
  resolver: Resolver;
}

const withPolicy = (options: CrawlerFetchOptions) => ({
  resolver: options.resolver,
  checkAddress: (address: string) => checkAddress(address, options),
  refused: (reason: string) => new BlockedAddressError(reason),
});

/** A fetch whose every connection resolves through `resolver` and goes only to addresses the policy accepts. */
export const createPinnedFetch = (options: CrawlerFetchOptions): typeof fetch => createFetch(withPolicy(options));

/** The net.connect lookup behind createPinnedFetch, for tests of the lookup itself. */
export const createCheckedLookup = (options: CrawlerFetchOptions) => createLookup(withPolicy(options));
