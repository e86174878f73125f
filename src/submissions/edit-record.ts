import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { isoTimestamp, sqlWords } from '../db/sql-format';
import { isoTimestampSchema } from '../timestamp-schemas';
import { editDecisions } from '../catalog/site-statuses';

/**
 * The edit fields of a site record (docs/pipeline.md "Edits"): the one pending edit, and the outcome of the
 * latest decided one, so a submitter sees an editor's reason for a rejection. Read by subqueries on the site's
 * own row, so every read of a record stays one statement. siteRecordSchema (record-schemas.ts) carries them.
 */
export const pendingEditSchema = z
  .object({
    edit_id: z.guid(),
    name: z.string().optional().describe('The proposed name, when the edit changes it'),
    description: z.string().optional().describe('The proposed description, when the edit changes it'),
    submitted_at: isoTimestampSchema('When the edit was filed', '2026-11-23T12:05:03.000Z'),
  })
  .describe(
    'An edit waiting for an editor (PATCH /api/v1/sites/{site_id}); the public page still shows the current text',
  );
export type PendingEdit = z.infer<typeof pendingEditSchema>;

export const lastEditSchema = z
  .object({
    edit_id: z.guid(),
    status: z.enum(editDecisions),
    reason: z.string().optional().describe("The editor's reason, when given (e.g. why the edit was rejected)"),
    decided_at: isoTimestampSchema('When an editor decided', '2026-11-23T13:05:03.000Z'),
  })
  .describe('The outcome of the most recently decided edit');
export type LastEdit = z.infer<typeof lastEditSchema>;

/** Columns `pending_edit` and `last_edit` (jsonb or null) for a site aliased `s`. */
export const editRecordColumns = sql`(SELECT jsonb_strip_nulls(jsonb_build_object('edit_id', e.id, 'name', e.name,
    'description', e.description, 'submitted_at', ${isoTimestamp(sql`e.submitted_at`)}))
    FROM site_edits e WHERE e.site_id = s.id AND e.status = 'pending') AS pending_edit,
  (SELECT jsonb_strip_nulls(jsonb_build_object('edit_id', e.id, 'status', e.status, 'reason', e.reason,
    'decided_at', ${isoTimestamp(sql`e.decided_at`)}))
    FROM site_edits e WHERE e.site_id = s.id AND e.status IN (${sqlWords(editDecisions)})
    ORDER BY e.decided_at DESC LIMIT 1) AS last_edit`;

type Json<T> = T | string | null | undefined;
export interface EditColumns {
  pending_edit?: Json<PendingEdit>;
  last_edit?: Json<LastEdit>;
}

const parse = <T>(value: Json<T>): T | undefined =>
  typeof value === 'string' ? (JSON.parse(value) as T) : (value ?? undefined);

/** Copies the edit fields that are present onto a record (absent fields stay absent, like live_url). */
export function withEditFields<R extends { pending_edit?: PendingEdit; last_edit?: LastEdit }>(
  record: R,
  row: EditColumns,
): R {
  const pending = parse(row.pending_edit);
  const last = parse(row.last_edit);
  if (pending) record.pending_edit = pending;
  if (last) record.last_edit = last;
  return record;
}
