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
  const seen = site.seen_description ? checkDescription(site.seen_description) : undefined;
  if (!seen?.ok || seen.description === (site.listed_description ?? '').trim().replace(/\s+/gu, ' ')) {
    throw new ServiceError('invalid_state', 'The last check saw no description on the site other than the one listed.');
  }
  return editSite({ deps, actor, input: { site_id: input.site_id, description: seen.description } });
}
