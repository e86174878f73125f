// The automatic review checks, as pure decisions: the review step gathers the facts, this decides.

export interface ReviewCheck {
  name: 'answered_html' | 'not_live_elsewhere' | 'domain_allowed';
  passed: boolean;
  detail: string;
}

export interface ReviewChecks {
  passed: boolean;
  checks: ReviewCheck[];
}

export interface ReviewFacts {
  /** The crawl stored metadata (the crawler only succeeds on an HTML page). */
  hasHtmlMetadata: boolean;
  finalUrl: string | null;
  /** Id of another live site whose canonical URL equals the final URL's canonical form, if any. */
  liveDuplicateId: string | null;
  /** Host names the site is known under: the submitted URL's and the final URL's. */
  hosts: string[];
  blockedDomains: string[];
}

/** True when `host` is `domain` or one of its subdomains (trailing dots and `www.` do not matter). */
export function isBlockedHost(host: string, blockedDomains: string[]): string | undefined {
  const h = host.toLowerCase().replace(/\.$/, '');
  return blockedDomains.find((raw) => {
    const d = raw
      .toLowerCase()
      .replace(/^\*?\./, '')
      .replace(/\.$/, '');
    return d !== '' && (h === d || h.endsWith(`.${d}`));
  });
}

/** Runs every check; the site passes only when all pass. */
export function decideReviewChecks(facts: ReviewFacts): ReviewChecks {
  const blocked = facts.hosts.map((h) => isBlockedHost(h, facts.blockedDomains)).find(Boolean);
  const checks: ReviewCheck[] = [
    {
      name: 'answered_html',
      passed: facts.hasHtmlMetadata,
      detail: facts.hasHtmlMetadata ? `HTML page at ${facts.finalUrl}` : 'no crawled HTML page',
    },
    {
      name: 'not_live_elsewhere',
      passed: facts.liveDuplicateId === null,
      detail: facts.liveDuplicateId
        ? `already live as site ${facts.liveDuplicateId}`
        : 'no other live site has this URL',
    },
    {
      name: 'domain_allowed',
      passed: !blocked,
      detail: blocked ? `domain ${blocked} is blocked` : 'domain not on the blocklist',
    },
  ];
  return { passed: checks.every((c) => c.passed), checks };
}
