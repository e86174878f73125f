// One polite re-check of a live tool (docs/health.md "Politeness"): its robots.txt first (a disallow means "not
// checked", never "failing"), then a conditional GET through the crawler's safe fetch that follows redirects only
// within the listing's own registrable domains; a redirect elsewhere stops the check and reads as `moved`.
import type { Deps } from '../deps';
import { checkPage, fetchRobotsTxt } from '../crawler/check-page';
import { checkTarget } from '../crawler';
import { compilePublicSuffixRules, registrableDomain, type DomainNameOptions } from '../domain-names';
import { answerOutcome, failureOutcome, type CheckOutcome } from './check-outcome';
import { isDisallowedByRobots } from './robots-rules';

/** The product token robots.txt groups are matched against. */
export const HEALTH_AGENT_TOKEN = 'tooldir';
/** The page that explains the check, named in our user agent. */
export const HEALTH_ABOUT_PATH = '/about/checks';

/** `tooldir/1.0 (+https://…/about/checks)`: names the directory and the page about the check. */
export const healthUserAgent = (origin: string) =>
  `${HEALTH_AGENT_TOKEN}-healthcheck/1.0 (+${origin}${HEALTH_ABOUT_PATH})`;

export interface CheckTarget {
  /** The listed URL (what the tool page links to). */
  url: string;
  /** The URL the crawl finally read at submission (after redirects): its domain is the listing's too. */
  crawledUrl: string | null;
  etag: string | null;
  lastModified: string | null;
}

/** Checks one tool; never throws for anything the site can cause. */
export async function checkSite(deps: Deps, target: CheckTarget): Promise<CheckOutcome> {
  const domains = await domainOptions(deps);
  const own = new Set(
    [domainOf(target.url, domains), target.crawledUrl ? domainOf(target.crawledUrl, domains) : undefined].filter(
      Boolean,
    ),
  );
  const mayFollow = (_from: URL, to: URL) => own.has(domainOf(to.href, domains));
  const common = {
    fetch: deps.crawl.fetch,
    resolver: deps.crawl.resolver,
    allowPrivate: deps.config.crawl.allowPrivate,
    userAgent: healthUserAgent(deps.origin),
    mayFollow,
    ...(deps.crawl.timeoutMs !== undefined && { timeoutMs: deps.crawl.timeoutMs }),
  };
  const robots = await fetchRobotsTxt(new URL(target.url).origin, common);
  if (robots.found && isDisallowedByRobots(robots.text, target.url, HEALTH_AGENT_TOKEN)) {
    return {
      state: 'unchecked',
      reason: 'robots_disallowed',
      detail: `${new URL(target.url).origin}/robots.txt disallows ${HEALTH_AGENT_TOKEN}`,
    };
  }
  const page = await checkPage(target.url, { ...common, etag: target.etag, lastModified: target.lastModified });
  if (page.kind === 'failed') return failureOutcome(page.error);
  if (page.kind === 'redirected_away') {
    // Never followed; but a redirect to an address we would refuse (private, loopback, cloud metadata) is a fault of
    // the site, not a move: only its address is looked at, nothing is sent there.
    const target = await checkTarget(page.to, {
      resolver: deps.crawl.resolver,
      allowPrivate: deps.config.crawl.allowPrivate,
    });
    if (!target.ok && target.error.kind !== 'dns_error') return failureOutcome(target.error);
    return {
      state: 'moved',
      movedTo: domainOf(page.to, domains) ?? new URL(page.to).hostname,
      detail: `${page.from} redirects to ${page.to}`,
    };
  }
  return answerOutcome(page);
}

async function domainOptions(deps: Deps): Promise<DomainNameOptions> {
  return {
    allowLocalNames: deps.config.crawl.allowPrivate,
    suffixes: compilePublicSuffixRules(await deps.publicSuffixes.rules()),
  };
}

/** The registrable domain of a URL's host; the host itself when it has none (an IP address, an unknown suffix). */
function domainOf(url: string, options: DomainNameOptions): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const found = registrableDomain(host, options);
  return found.ok ? found.domain : host.toLowerCase();
}
