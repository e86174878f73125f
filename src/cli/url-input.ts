// What the user typed for a site: a site_id (UUID) or a tool URL, and the key under which the CLI
// remembers its own submissions (the service's canonical form, DECISIONS.md "Duplicates").
import { canonicalUrl } from '../submissions/url';
import { usageError } from './cli-error';
import { isUuid } from '../ids';

/** True when the argument is a site_id rather than a URL. */
export function isSiteId(value: string): boolean {
  return isUuid(value.trim());
}

/**
 * Turns a typed URL into an absolute http(s) URL; a bare host such as `example.com/x` gets `https://`.
 * Anything else is a usage error, so the API is never asked about a value that cannot be a tool URL.
 */
export function normalizeUrlArg(value: string): string {
  const trimmed = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw usageError(`"${value}" is not a URL or a site_id`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw usageError(`"${value}" is not an http or https URL`);
  }
  const typedScheme = withScheme === trimmed;
  // Without a scheme, only something that looks like a host is taken as a URL ("foo" is a typo, not a site).
  if (!typedScheme && !parsed.hostname.includes('.') && parsed.hostname !== 'localhost') {
    throw usageError(`"${value}" is not a URL or a site_id`);
  }
  return withScheme;
}

/**
 * The canonical form under which the service compares URLs (src/submissions/url.ts, the one place that
 * rule lives); the CLI keys its own record of submissions by it. An unparsable value is kept as typed.
 */
export function canonicalUrlKey(url: string): string {
  try {
    return canonicalUrl(new URL(url.trim()));
  } catch {
    return url.trim();
  }
}
