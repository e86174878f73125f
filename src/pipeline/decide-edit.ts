import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { isUniqueViolation, queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import type { EditStatus } from '../catalog/site-statuses';
import type { Decision } from './decision-conditions';
import { isSlugTaken, slugForName } from './free-slug';

export interface EditDecision {
  edit_id: string;
  decision: Decision;
  reason?: string;
}

/** An edit as operators see it (the review endpoint's answer and the /admin list). */
export interface SiteEdit {
  edit_id: string;
  site_id: string;
  status: EditStatus;
  name?: string;
  description?: string;
  reason?: string;
  submitted_at: string;
  decided_at?: string;
}

/**
 * An editor's decision on a submitter's edit (docs/pipeline.md "Edits"), from the REST endpoint or /admin.
 * Approve is ONE statement: it locks the pending edit (a concurrent approval waits, then finds it decided),
 * copies the proposal onto the live site only if no other site holds the new name meanwhile (the unique index
 * on sites.normalized_name backs the check against a concurrent submit or approval), and marks the edit
 * approved only when the site changed. The search vector is a generated column, so search follows.
 * Operators are not accounts: there is no actor.
 */
export async function decideEdit({ deps, input }: { deps: Deps; input: EditDecision }): Promise<SiteEdit> {
  if (!isUuid(input.edit_id)) throw notFound();
  const reason = input.reason?.trim() || null;
  let decided: { id: string } | undefined;
  try {
    decided =
      input.decision === 'approve'
        ? await approveWithSlug(deps, input.edit_id, reason)
        : (await queryRows<{ id: string }>(deps.db, reject(input.edit_id, reason)))[0];
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  if (!decided) throw await whyNot(deps, input.edit_id);
  return (await readEdit(deps, input.edit_id))!;
}

const SLUG_TRIES = 5;

/**
 * A rename takes the slug of its new name (docs/pipeline.md "Renames"): chosen before the statement
 * (./free-slug.ts), written with the name, and recorded in the slug history by its trigger, so the old slug keeps
 * answering 301. A slug a concurrent writer took meanwhile fails the statement; it is chosen again.
 */
async function approveWithSlug(deps: Deps, editId: string, reason: string | null): Promise<{ id: string } | undefined> {
  for (let attempt = 1; ; attempt++) {
    const [edit] = await queryRows<{ site_id: string; name: string | null }>(
      deps.db,
      sql`SELECT site_id, name FROM site_edits WHERE id = ${editId}::uuid AND status = 'pending'`,
    );
    if (!edit) return undefined;
    const slug = edit.name === null ? null : await slugForName(deps.db, edit.site_id, edit.name);
    try {
      const [decided] = await queryRows<{ id: string }>(deps.db, approve(editId, reason, slug, deps.origin));
      return decided;
    } catch (error) {
      if (!isSlugTaken(error) || attempt >= SLUG_TRIES) throw error;
    }
  }
}

const approve = (editId: string, reason: string | null, slug: string | null, origin: string) =>
  sql`WITH e AS (
        SELECT id, site_id, name, normalized_name, description FROM site_edits
        WHERE id = ${editId}::uuid AND status = 'pending' FOR UPDATE
      ), applied AS (
        UPDATE sites s SET name = coalesce(e.name, s.name), normalized_name = coalesce(e.normalized_name, s.normalized_name),
          slug = coalesce(${slug}::text, s.slug),
          live_url = CASE WHEN ${slug}::text IS NULL THEN s.live_url ELSE ${origin}::text || '/tools/' || ${slug}::text END,
          metadata = CASE WHEN e.description IS NULL THEN s.metadata
            ELSE coalesce(s.metadata, '{}'::jsonb) || jsonb_build_object('description', e.description) END
        FROM e
        WHERE s.id = e.site_id AND s.status IN ('pending_review', 'live')
          AND (e.normalized_name IS NULL
            OR NOT EXISTS (SELECT 1 FROM sites o WHERE o.normalized_name = e.normalized_name AND o.id <> s.id AND o.withdrawn_at IS NULL))
        RETURNING s.id
      )
      UPDATE site_edits SET status = 'approved', reason = ${reason}::text, decided_at = now()
      WHERE id IN (SELECT e.id FROM e JOIN applied ON applied.id = e.site_id)
      RETURNING id`;

const reject = (editId: string, reason: string | null) =>
  sql`UPDATE site_edits SET status = 'rejected', reason = ${reason}::text, decided_at = now()
      WHERE id = ${editId}::uuid AND status = 'pending' RETURNING id`;

async function whyNot(deps: Deps, editId: string): Promise<ServiceError> {
  const [row] = await queryRows<{ status: string; site_status: string; holder_id: string | null }>(
    deps.db,
    sql`SELECT e.status, s.status AS site_status, o.id AS holder_id FROM site_edits e JOIN sites s ON s.id = e.site_id
        LEFT JOIN sites o ON o.normalized_name = e.normalized_name AND o.id <> s.id AND o.withdrawn_at IS NULL
        WHERE e.id = ${editId}::uuid`,
  );
  if (!row) return notFound();
  if (row.status !== 'pending') return new ServiceError('conflict', `The edit is already ${row.status}.`);
  if (row.site_status !== 'live' && row.site_status !== 'pending_review') {
    return new ServiceError(
      'invalid_state',
      `The tool is ${row.site_status}; only the edit of a tool in review or live can be approved (reject it instead).`,
    );
  }
  if (row.holder_id) return nameTaken(row.holder_id);
  return new ServiceError('conflict', 'The edit changed while deciding; try again.');
}

const nameTaken = (siteId?: string) =>
  new ServiceError(
    'already_submitted',
    'Another tool has this name now; reject the edit (or let the submitter choose another name).',
    siteId ? { site_id: siteId } : {},
  );

const notFound = () => new ServiceError('not_found', 'No edit with this id.');

const editColumns = sql`e.id AS edit_id, e.site_id, e.status, e.name, e.description, e.reason,
  ${isoTimestamp(sql`e.submitted_at`)} AS submitted_at, ${isoTimestamp(sql`e.decided_at`)} AS decided_at`;

type EditRow = { [K in keyof SiteEdit]-?: SiteEdit[K] | null };

function toSiteEdit(row: EditRow): SiteEdit {
  const edit = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as unknown as SiteEdit;
  return edit;
}

export async function readEdit(deps: Deps, editId: string): Promise<SiteEdit | undefined> {
  const [row] = await queryRows<EditRow>(
    deps.db,
    sql`SELECT ${editColumns} FROM site_edits e WHERE e.id = ${editId}::uuid`,
  );
  return row ? toSiteEdit(row) : undefined;
}

/** A pending edit with the tool's current text next to it (the /admin list). */
export interface PendingEditItem extends SiteEdit {
  current_name: string;
  current_description: string | null;
  slug: string | null;
}

/** Pending edits of tools in review or live, oldest first (the editor's queue of edits). */
export async function listPendingEdits(deps: Deps, limit = 50): Promise<PendingEditItem[]> {
  const rows = await queryRows<
    EditRow & { current_name: string; current_description: string | null; slug: string | null }
  >(
    deps.db,
    sql`SELECT ${editColumns}, s.name AS current_name, s.metadata->>'description' AS current_description, s.slug
        FROM site_edits e JOIN sites s ON s.id = e.site_id
        WHERE e.status = 'pending' AND s.status IN ('pending_review', 'live') ORDER BY e.submitted_at LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    ...toSiteEdit(r),
    current_name: r.current_name,
    current_description: r.current_description,
    slug: r.slug,
  }));
}
