// The safe crawler: pure and dependency-injected (fetch and resolver come from the entry point).
export { crawlPage, CRAWL_DEFAULTS, type CrawlOptions } from './crawl-page';
export { crawlPreferringHttps, httpsFormOf, type HttpsFirstResult } from './https-first';
export { checkTarget, type CheckTargetOptions, type TargetDecision } from './resolve-and-check';
export { checkAddress, checkAddresses, type AddressPolicyOptions, type AddressVerdict } from './address-policy';
export { extractPageMetadata, TITLE_MAX_LENGTH, DESCRIPTION_MAX_LENGTH } from './html-metadata';
export { BlockedAddressError } from './crawl-failures';
export { type CrawlResult, type CrawlFailure, type PageMetadata } from './crawl-result';
export { crawlFailureKinds, type CrawlFailureKind } from '../catalog/crawl-failure-kinds';
export type { Resolver } from '../adapters/resolver/resolver';
