import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';

// The outbound link GET /go/{slug} (docs/stats.md "Clicks"): where a click on "Visit" goes. The target is always
// the stored website URL of that live tool; nothing of the request (no query parameter, no header) can name it.

/** The parameter that tells the tool's site the visit came from the directory. */
export const REF_PARAM = 'ref=tooldir';

/**
 * The stored URL with `ref=tooldir` added after its own query, which is kept byte for byte; a URL that already
 * carries a `ref` parameter keeps its own. Anything but an http(s) URL has no outbound link (undefined).
 */
export function outboundTarget(stored: string): string | undefined {
  let url: URL;
  try {
    url = new URL(stored);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!url.searchParams.has('ref')) url.search = url.search.length > 1 ? `${url.search}&${REF_PARAM}` : `?${REF_PARAM}`;
  return url.href;
}

/** The redirect target of a live tool's outbound link, or undefined (unknown slug, not live, unusable URL). One statement. */
export async function findOutboundTarget(deps: Deps, slug: string): Promise<string | undefined> {
  const [row] = await queryRows<{ url: string }>(
    deps.db,
    sql`SELECT url FROM sites WHERE slug = ${slug} AND status = 'live'`,
  );
  return row ? outboundTarget(row.url) : undefined;
}
