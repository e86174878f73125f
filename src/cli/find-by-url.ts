// A submission of the caller's found by the URL that was submitted: for `status <url>` and `stats <url>`.
import type { SiteDetail } from './api-types';
import { CliError } from './cli-error';
import { findRemembered } from './config-store';
import type { KeyedSession } from './session';
import { canonicalUrlKey } from './url-input';

/** The list's `url` filter first (then the detail read of the match: only it carries history and queue), then the site_ids this CLI remembers for the URL (newest first). */
export async function findByUrl(session: KeyedSession, url: string): Promise<SiteDetail> {
  const key = canonicalUrlKey(url);
  const listed = await session.client.listSites({ url, limit: 100 });
  // Filter again here: a server without the `url` filter answers with the whole first page.
  const match = listed.sites.find((site) => canonicalUrlKey(site.url) === key);
  if (match) return session.client.getSite(match.site_id);

  for (const remembered of findRemembered(session.config, url, session.baseUrl)) {
    try {
      return await session.client.getSite(remembered.site_id);
    } catch (error) {
      if (!(error instanceof CliError && error.code === 'not_found')) throw error;
    }
  }
  throw new CliError('not_found', `No submission of yours was found for ${url}.`, {
    extraLines: ['Unpaid submissions are only found when this CLI made them; use the site_id instead.'],
  });
}
