// What the user typed for a site: a site_id (UUID) or a tool URL, and the key under which the CLI
// remembers its own submissions (the service's canonical form, DECISIONS.md "Duplicates").
import { canonicalUrl, readSubmittedUrl, schemeAddedNotice } from '../submissions/url';
import { usageError } from './cli-error';
import { isUuid } from '../ids';

/** True when the argument is a site_id rather than a URL. */
export function isSiteId(value: string): boolean {
  return isUuid(value.trim());
}

/**
 * A typed URL read by the service's own rule (src/submissions/url.ts readSubmittedUrl): a bare host such as
 * `acme.com` gets `https://`, anything else the API would refuse is a usage error in the API's words, so the CLI
 * accepts and refuses exactly what the API, MCP and the web form do. `orSiteId`: the argument may be a site_id too.
 */
export function readUrlArg(value: string, options: { orSiteId?: boolean } = {}): { url: string; notice?: string } {
  const read = readSubmittedUrl(value);
  if (!read.ok) throw usageError(`url: ${read.message}${options.orSiteId ? ' (or give the site_id)' : ''}`);
  const url = read.schemeAdded ? `https://${value.trim()}` : value.trim();
  return read.schemeAdded ? { url, notice: schemeAddedNotice(read.url.href) } : { url };
}

/** The URL to send for a typed one (see readUrlArg). */
export const normalizeUrlArg = (value: string, options: { orSiteId?: boolean } = {}): string =>
  readUrlArg(value, options).url;

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
