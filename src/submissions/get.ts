import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { preparedStatement } from '../db/prepared';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import type { SubmissionRecord } from './record-schemas';
import type { PendingRow, SiteRow } from './records';
import { pendingRecordColumns, siteRecordColumns, toPendingRecord, toRefundedRecord, toSiteRecord } from './records';
import { progressColumns, withProgress, type ProgressRow } from './progress';

/**
 * One of the caller's submissions (reference 4.2): the site record first (with its history and queue
 * position, docs/submission-progress.md), then the unpaid pending record, in one statement. Another caller's id, an unknown id and a malformed id are all the same 404.
 */
export async function getSubmission({
  deps,
  actor,
  input: { siteId },
}: {
  deps: Deps;
  actor: Actor;
  input: { siteId: string };
}): Promise<SubmissionRecord> {
  if (!isUuid(siteId)) throw notFound();
  return lookup(deps, byId, { key: siteId, accountId: actor.accountId });
}

/**
 * One of the caller's submissions by its URL's canonical form: the site record first, then the unpaid
 * pending record (which the list excludes), so `status <url>` also finds a submission awaiting payment.
 */
export async function findSubmissionByUrl({
  deps,
  actor,
  input: { canonicalUrl },
}: {
  deps: Deps;
  actor: Actor;
  input: { canonicalUrl: string };
}): Promise<SubmissionRecord> {
  return lookup(deps, byUrl, { key: canonicalUrl, accountId: actor.accountId });
}

/** Both lookups in one statement, site first; built once per process (src/db/prepared.ts). */
const lookupStatement = (site: SQL, pending: SQL) =>
  preparedStatement<'key' | 'accountId'>(
    (
      p,
    ) => sql`SELECT 'site' AS kind, to_jsonb(x) AS row FROM (SELECT ${siteRecordColumns}, ${progressColumns} FROM sites s
          WHERE ${site} = ${p('key')} AND s.account_id = ${p('accountId')}) x
        UNION ALL
        SELECT 'pending' AS kind, to_jsonb(y) AS row FROM (SELECT ${pendingRecordColumns} FROM pending_submissions p
          WHERE ${pending} = ${p('key')} AND p.account_id = ${p('accountId')}) y
        ORDER BY 1 DESC`,
  );
const byId = lookupStatement(sql`s.id`, sql`p.id`);
const byUrl = lookupStatement(sql`s.canonical_url`, sql`p.canonical_url`);

async function lookup(
  deps: Deps,
  statement: typeof byId,
  values: { key: string; accountId: string },
): Promise<SubmissionRecord> {
  const rows = await statement.rows<({ kind: 'site' } & SiteRow) | ({ kind: 'pending' } & PendingRow)>(deps.db, values);
  // 'site' sorts before 'pending': the reference's lookup order.
  const first = rows[0] as unknown as { kind: 'site' | 'pending'; row: unknown } | undefined;
  if (!first) throw notFound();
  const row = (typeof first.row === 'string' ? JSON.parse(first.row) : first.row) as SiteRow & PendingRow & ProgressRow;
  if (first.kind === 'site') return withProgress(toSiteRecord(row), row);
  if (row.state !== 'refunded') return toPendingRecord(row);
  // The refund itself has no recorded time: the history holds the pending_payment step, rejection_reason says why.
  return { ...toRefundedRecord(row), history: [{ status: 'pending_payment', at: row.submitted_at }] };
}

/** The one 404 for a submission that is unknown or another account's (never tell them apart). */
export const notFound = () => new ServiceError('not_found', 'No submission with this id belongs to you.');
