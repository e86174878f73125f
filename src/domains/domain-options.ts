import type { Deps } from '../deps';
import {
  compilePublicSuffixRules,
  registrableDomain,
  registrableDomainOfUrl,
  type DomainNameOptions,
} from '../domain-names';
import { ServiceError } from '../errors';

/** The domain-name rules in force: the Public Suffix List, and `<name>.localhost` as a domain with CRAWL_ALLOW_PRIVATE. */
export async function domainNameOptions(deps: Pick<Deps, 'config' | 'publicSuffixes'>): Promise<DomainNameOptions> {
  return {
    allowLocalNames: deps.config.crawl.allowPrivate,
    suffixes: compilePublicSuffixRules(await deps.publicSuffixes.rules()),
  };
}

/** The registrable domain of a typed domain, or 400 invalid_request naming `field` with the reason. */
export async function domainOf(
  deps: Pick<Deps, 'config' | 'publicSuffixes'>,
  typed: string,
  field = 'domain',
): Promise<string> {
  const result = registrableDomain(typed, await domainNameOptions(deps));
  if (!result.ok) throw new ServiceError('invalid_request', `${field}: ${result.reason}.`, { field });
  return result.domain;
}

/** The registrable domain of a URL's host, or undefined when it has none (an IP address, a public suffix). */
export async function domainOfUrl(
  deps: Pick<Deps, 'config' | 'publicSuffixes'>,
  url: string,
): Promise<string | undefined> {
  const result = registrableDomainOfUrl(url, await domainNameOptions(deps));
  return result.ok ? result.domain : undefined;
}
