// robots.txt for the re-check: `robots-parser` (maintained, spec-compliant with RFC 9309's wildcards and longest
// match, no dependencies, small enough for the Worker bundle) reads the file; this is the one question we ask it.
import robotsParser from 'robots-parser';

/** True when the file's group for `agentToken` (else `*`) disallows `url`. A file about another host disallows nothing. */
export function isDisallowedByRobots(robotsTxt: string, url: string, agentToken: string): boolean {
  const robotsUrl = new URL('/robots.txt', url).href;
  return robotsParser(robotsUrl, robotsTxt).isDisallowed(url, agentToken) === true;
}
