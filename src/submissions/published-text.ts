import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';

/** What the public page of one of the caller's tools shows as its text: the name, and the description the crawl read. */
export interface PublishedText {
  name: string;
  /** The crawled description (or an approved edit's); null when the site gave none, or before the crawl. */
  description: string | null;
}

/**
 * The text that will be published (in review) or is (live), for the submitter to check before the tool goes live
 * (the submission page; an edit proposes another). Another account's site is undefined, like an unknown one.
 */
export async function getPublishedText(deps: Deps, actor: Actor, siteId: string): Promise<PublishedText | undefined> {
  const [row] = await queryRows<PublishedText>(
    deps.db,
    sql`SELECT s.name, nullif(trim(s.metadata->>'description'), '') AS description FROM sites s
        WHERE s.id = ${siteId}::uuid AND s.account_id = ${actor.accountId}::uuid`,
  );
  return row;
}
