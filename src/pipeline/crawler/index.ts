// The safe crawler: pure and dependency-injected (fetch and resolver come from the entry point).
export { crawlPage, CRAWL_DEFAULTS, type CrawlOptions } from './crawl-page.js';
export { checkTarget, type CheckTargetOptions, type TargetDecision } from './resolve-and-check.js';
export { checkAddress, checkAddresses, type AddressPolicyOptions, type AddressVerdict } from './address-policy.js';
export { extractPageMetadata, TITLE_MAX_LENGTH, DESCRIPTION_MAX_LENGTH } from './html-metadata.js';
export { BlockedAddressError } from './crawl-failures.js';
export { crawlFailureKinds, type CrawlResult, type CrawlFailure, type CrawlFailureKind, type PageMetadata } from './crawl-result.js';
export type { Resolver } from '../../adapters/resolver/resolver.js';
