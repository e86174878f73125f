import { sql } from 'drizzle-orm';
import { isoTimestamp } from '../db/sql-format';

/**
 * The edit fields of a site record (docs/pipeline.md "Edits"): the one pending edit, and the outcome of the
 * latest decided one, so a submitter sees an editor's reason for a rejection. Subqueries on the site's own
 * row, so every read of a record stays one statement.
 */
export interface PendingEdit {
  edit_id: string;
  name?: string;
  description?: string;
  submitted_at: string;
}

export interface LastEdit {
  edit_id: string;
  status: 'approved' | 'rejected';
  reason?: string;
  decided_at: string;
}

export interface EditFields {
  pending_edit?: PendingEdit;
  last_edit?: LastEdit;
}

/** Columns `pending_edit` and `last_edit` (jsonb or null) for a site aliased `s`. */
export const editRecordColumns = sql`(SELECT jsonb_strip_nulls(jsonb_build_object('edit_id', e.id, 'name', e.name,
    'description', e.description, 'submitted_at', ${isoTimestamp(sql`e.submitted_at`)}))
    FROM site_edits e WHERE e.site_id = s.id AND e.status = 'pending') AS pending_edit,
  (SELECT jsonb_strip_nulls(jsonb_build_object('edit_id', e.id, 'status', e.status, 'reason', e.reason,
    'decided_at', ${isoTimestamp(sql`e.decided_at`)}))
    FROM site_edits e WHERE e.site_id = s.id AND e.status IN ('approved', 'rejected')
    ORDER BY e.decided_at DESC LIMIT 1) AS last_edit`;

type Json<T> = T | string | null | undefined;
const parse = <T>(value: Json<T>): T | undefined => (typeof value === 'string' ? (JSON.parse(value) as T) : (value ?? undefined));

/** Copies the edit fields that are present onto a record (absent fields stay absent, like live_url). */
export function withEditFields<R extends object>(record: R, row: { pending_edit?: Json<PendingEdit>; last_edit?: Json<LastEdit> }): R & EditFields {
  const out: R & EditFields = record;
  const pending = parse(row.pending_edit);
  const last = parse(row.last_edit);
  if (pending) out.pending_edit = pending;
  if (last) out.last_edit = last;
  return out;
}
