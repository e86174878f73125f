// "Refresh from the site" (docs/health.md "Changes on the site"): the owner asks that what the last check saw on their
// tool's page become the listing's text. It is filed as an edit for review like any other (src/submissions/edit.ts);
// nothing public changes until an editor approves.
import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import { editSite } from '../submissions/edit';
import { checkDescription } from '../submissions/edit-input';
import { notFound } from '../submissions/get';
import type { SiteRecord } from '../submissions/record-schemas';

/** Files the page's description, as the last passing check saw it, as an edit of the caller's live tool. */
export async function refreshFromSite({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: { site_id: string };
}): Promise<SiteRecord> {
  if (!isUuid(input.site_id)) throw notFound();
  const [site] = await queryRows<{
    status: string;
    seen_description: string | null;
    listed_description: string | null;
    checked: boolean;
  }>(
    deps.db,
    sql`SELECT s.status, h.seen_description, s.metadata->>'description' AS listed_description, h.last_ok_at IS NOT NULL AS checked
        FROM sites s LEFT JOIN site_health h ON h.site_id = s.id
        WHERE s.id = ${input.site_id}::uuid AND s.account_id = ${actor.accountId}::uuid`,
  );
  if (!site) throw notFound();
  if (site.status !== 'live')
    throw new ServiceError('invalid_state', `Only a live tool can be refreshed; this submission is ${site.status}.`);
  if (!site.checked)
    throw new ServiceError(
      'invalid_state',
      "The tool's site has not been checked yet: there is nothing to refresh from.",
    );
  const description = proposedDescription(site.seen_description, site.listed_description);
  if (description === undefined) {
    throw new ServiceError('invalid_state', 'The last check saw no description on the site other than the one listed.');
  }
  return editSite({ deps, actor, input: { site_id: input.site_id, description } });
}

/** The description a refresh would propose: the one seen on the site, when it is valid and not the listed one. */
function proposedDescription(seen: string | null, listed: string | null): string | undefined {
  const checked = seen ? checkDescription(seen) : undefined;
  if (!checked?.ok || checked.description === (listed ?? '').trim().replace(/\s+/gu, ' ')) return undefined;
  return checked.description;
}

/** What the listing shows and what the last passing check saw on the site: the two sides of "Refresh from the site". */
export interface SiteChanges {
  listed: { title: string | null; description: string | null; image: string | null };
  seen: { title: string | null; description: string | null; image: string | null };
  /** Whether the seen description differs from the listed one (only a description can be proposed as an edit). */
  descriptionChanged: boolean;
}

/** The caller's live tool's changes as the last check saw them; undefined when there is none to show. */
export async function siteChangesOf(deps: Deps, actor: Actor, siteId: string): Promise<SiteChanges | undefined> {
  if (!isUuid(siteId)) return undefined;
  const [row] = await queryRows<{
    listed_title: string | null;
    listed_description: string | null;
    listed_image: string | null;
    seen_title: string | null;
    seen_description: string | null;
    seen_image: string | null;
  }>(
    deps.db,
    sql`SELECT s.metadata->>'title' AS listed_title, s.metadata->>'description' AS listed_description,
          s.metadata->>'imageSource' AS listed_image, h.seen_title, h.seen_description, h.seen_image
        FROM sites s JOIN site_health h ON h.site_id = s.id
        WHERE s.id = ${siteId}::uuid AND s.account_id = ${actor.accountId}::uuid AND s.status = 'live' AND h.last_ok_at IS NOT NULL`,
  );
  if (!row) return undefined;
  return {
    listed: { title: row.listed_title, description: row.listed_description, image: row.listed_image },
    seen: { title: row.seen_title, description: row.seen_description, image: row.seen_image },
    descriptionChanged: proposedDescription(row.seen_description, row.listed_description) !== undefined,
  };
}
