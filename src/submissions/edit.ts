import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { isUniqueViolation, queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { alreadySubmitted } from './already-submitted';
import { changeSiteUrl } from './change-url';
import type { EditInput } from './edit-input';
import { isUuid } from '../ids';
import { getSubmission, notFound } from './get';
import { normalizeName } from './name';
import type { SiteRecord } from './record-schemas';
import { probeSiteMcpQuietly } from '../mcp-servers/probe-site';
import { forgetMcpServer } from '../mcp-servers/record-probe';

/**
 * The states whose text a submitter may propose to change: in review (the crawled description is what will be
 * published, and the submitter sees it before it is) and live.
 */
export const EDITABLE = ['pending_review', 'live'] as const;
const EDITABLE_SQL = sql`('pending_review', 'live')`;

/**
 * PATCH /api/v1/sites/{site_id} and MCP edit_site: `url` alone fixes a failed crawl (./change-url.ts); otherwise
 * files an edit of one of the caller's tools in review or live (docs/pipeline.md "Edits"): one statement checks owner, state
 * and that no other site holds the new name, supersedes the site's pending edit (a newer proposal replaces it)
 * and stores the new one. The public page changes only when an editor approves (src/pipeline/decide-edit.ts).
 */
export async function editSite({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: EditInput & { site_id: string };
}): Promise<SiteRecord> {
  if (!isUuid(input.site_id)) throw notFound();
  if (input.url !== undefined) {
    // A new address fixes a failed crawl (its own rules and state); the text of a live tool is another matter.
    if (input.name !== undefined || input.description !== undefined || input.mcp_url !== undefined) {
      throw new ServiceError(
        'invalid_request',
        'Change url on its own: it fixes a failed crawl, while name and description edit a live tool.',
        { field: 'url' },
      );
    }
    return changeSiteUrl({ deps, actor, input: { site_id: input.site_id, url: input.url } });
  }
  if (input.name === undefined && input.description === undefined && input.mcp_url === undefined) {
    throw new ServiceError('invalid_request', 'An edit needs name, description or mcp_url, or url alone.');
  }
  if (input.mcp_url !== undefined) {
    const changed = await changeMcpUrl(deps, actor, input.site_id, input.mcp_url);
    if (!changed) throw await whyNot(deps, actor, input.site_id, null);
    if (input.name === undefined && input.description === undefined)
      return (await getSubmission({ deps, actor, input: { siteId: input.site_id } })) as SiteRecord;
  }
  const normalizedName = input.name === undefined ? null : normalizeName(input.name);
  let filed: { id: string } | undefined;
  try {
    [filed] = await queryRows<{ id: string }>(
      deps.db,
      sql`WITH site AS (
            SELECT s.id FROM sites s
            WHERE s.id = ${input.site_id}::uuid AND s.account_id = ${actor.accountId}::uuid AND s.status IN ${EDITABLE_SQL}
              AND (${normalizedName}::text IS NULL
                OR NOT EXISTS (SELECT 1 FROM sites o WHERE o.normalized_name = ${normalizedName}::text AND o.id <> s.id AND o.withdrawn_at IS NULL))
          ), superseded AS (
            UPDATE site_edits SET status = 'superseded', decided_at = now()
            WHERE site_id IN (SELECT id FROM site) AND status = 'pending' RETURNING id
          )
          INSERT INTO site_edits (id, site_id, account_id, name, normalized_name, description)
          -- Reading the superseded count makes the old pending row leave the partial unique index first.
          SELECT ${crypto.randomUUID()}::uuid, site.id, ${actor.accountId}::uuid, ${input.name ?? null}::text,
            ${normalizedName}::text, ${input.description ?? null}::text
          FROM site CROSS JOIN (SELECT count(*) FROM superseded) AS old
          RETURNING id`,
    );
  } catch (error) {
    // Two edits of one site filed at the same instant: the partial unique index keeps one.
    if (isUniqueViolation(error))
      throw new ServiceError('conflict', 'Another edit of this tool was filed at the same moment; try again.');
    throw error;
  }
  if (!filed) throw await whyNot(deps, actor, input.site_id, normalizedName);
  return (await getSubmission({ deps, actor, input: { siteId: input.site_id } })) as SiteRecord;
}

/**
 * Sets the MCP endpoint of one of the caller's tools in review or live (docs/mcp-servers.md). Not an editor's
 * matter: the URL is not text shown as ours, and the probe, not an editor, says what it is. A new URL is probed in
 * the background (what the old one found is not shown for it); null forgets the server. False when the site is not
 * the caller's or not in an editable state.
 */
async function changeMcpUrl(deps: Deps, actor: Actor, siteId: string, mcpUrl: string | null): Promise<boolean> {
  const [row] = await queryRows<{ before: string | null }>(
    deps.db,
    sql`WITH old AS (
          SELECT id, mcp_url FROM sites
          WHERE id = ${siteId}::uuid AND account_id = ${actor.accountId}::uuid AND status IN ${EDITABLE_SQL}
          FOR UPDATE
        )
        UPDATE sites s SET mcp_url = ${mcpUrl}::text FROM old WHERE s.id = old.id
        RETURNING old.mcp_url AS before`,
  );
  if (!row) return false;
  if (mcpUrl === null) await forgetMcpServer(deps, siteId);
  else if (row.before !== mcpUrl) deps.defer(probeSiteMcpQuietly(deps, siteId));
  return true;
}

async function whyNot(deps: Deps, actor: Actor, siteId: string, normalizedName: string | null): Promise<ServiceError> {
  const [site] = await queryRows<{
    status: string;
    holder_id: string | null;
    holder_account_id: string | null;
    holder_slug: string | null;
  }>(
    deps.db,
    sql`SELECT s.status, o.id AS holder_id, o.account_id AS holder_account_id, CASE WHEN o.status = 'live' THEN o.slug END AS holder_slug FROM sites s
        LEFT JOIN sites o ON o.normalized_name = ${normalizedName}::text AND o.id <> s.id AND o.withdrawn_at IS NULL
        WHERE s.id = ${siteId}::uuid AND s.account_id = ${actor.accountId}::uuid`,
  );
  if (!site) {
    const [pending] = await queryRows<{ id: string }>(
      deps.db,
      sql`SELECT id FROM pending_submissions WHERE id = ${siteId}::uuid AND account_id = ${actor.accountId}::uuid`,
    );
    return pending ? invalidState('pending_payment') : notFound();
  }
  if (!(EDITABLE as readonly string[]).includes(site.status)) return invalidState(site.status);
  if (site.holder_id)
    return alreadySubmitted(
      actor,
      { siteId: site.holder_id, accountId: site.holder_account_id!, field: 'name', liveSlug: site.holder_slug },
      deps.origin,
    );
  return new ServiceError('conflict', 'The tool changed while filing the edit; try again.');
}

const invalidState = (status: string) =>
  new ServiceError('invalid_state', `Only a tool in review or live can be edited; this submission is ${status}.`);
