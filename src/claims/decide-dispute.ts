// The operator's decision on a claim dispute (docs/ownership.md "Disputes"), from /admin or the operator API: give the
// listing to the claimant (moved as a claim moves it) or keep it with its owner. The dispute row records which.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { ServiceError } from '../errors';
import { isUuid } from '../ids';
import { disputeAwardedMail, disputeDecidedMail } from './claim-mail';
import { moveListing, sendClaimMail } from './move-listing';

export const disputeDecisions = ['award', 'keep'] as const;
export type DisputeDecision = (typeof disputeDecisions)[number];

/** A decided dispute as operators read it back. */
export interface DecidedDispute {
  claim_id: string;
  site_id: string;
  domain: string;
  /** awarded: the listing moved to the claimant; kept: it stayed with its owner. */
  outcome: 'awarded' | 'kept';
  owner_account_id: string;
  claimant_account_id: string;
  settled_at: string;
}

interface DisputeRow {
  site_id: string;
  from_account_id: string;
  to_account_id: string;
  domain: string;
  outcome: string;
  owner_id: string;
  name: string;
  url: string;
  claimant_email: string;
}

const notFound = () => new ServiceError('not_found', 'No claim dispute with this id.');
const decided = () => new ServiceError('conflict', 'This dispute was already decided.');
const ownerChanged = () =>
  new ServiceError(
    'conflict',
    'The listing changed owner since this claim: keep it to close the dispute; the claimant can claim again.',
  );

/**
 * Decides an open dispute once: of two decisions on one dispute (a double click, two operators), the first wins and
 * the other gets 409 conflict with nothing changed. Award is ONE statement (./move-listing.ts) that locks the
 * listing while it is still the disputed owner's, settles the dispute and moves the listing; keep settles it.
 */
export async function decideDispute({
  deps,
  input,
}: {
  deps: Deps;
  input: { claim_id: string; decision: DisputeDecision };
}): Promise<DecidedDispute> {
  if (!isUuid(input.claim_id)) throw notFound();
  const [row] = await queryRows<DisputeRow>(
    deps.db,
    sql`SELECT c.site_id, c.from_account_id, c.to_account_id, c.domain, c.outcome, s.account_id AS owner_id, s.name, s.url,
          a.email AS claimant_email
        FROM site_claims c JOIN sites s ON s.id = c.site_id JOIN accounts a ON a.id = c.to_account_id
        WHERE c.id = ${input.claim_id}::uuid AND c.outcome IN ('disputed', 'awarded', 'kept')`,
  );
  if (!row) throw notFound();
  if (row.outcome !== 'disputed') throw decided();
  const settled =
    input.decision === 'award' ? await award(deps, input.claim_id, row) : await keep(deps, input.claim_id, row);
  if (!settled) throw await whyNot(deps, input.claim_id);
  return (await readDecided(deps, input.claim_id))!;
}

const open = (claimId: string) => sql`c.id = ${claimId}::uuid AND c.outcome = 'disputed' AND c.settled_at IS NULL`;

async function award(deps: Deps, claimId: string, row: DisputeRow): Promise<boolean> {
  if (row.owner_id !== row.from_account_id) throw ownerChanged();
  const moved = await moveListing(deps, {
    siteId: row.site_id,
    fromAccountId: row.from_account_id,
    toAccountId: row.to_account_id,
    domain: row.domain,
    // The listing's row is locked first (while it is still the disputed owner's), so a concurrent award of another
    // claimant's dispute waits here and then finds the owner changed; the dispute row's own lock stops a double decision.
    before: sql`locked AS (
          SELECT s.id FROM sites s JOIN site_claims c ON c.site_id = s.id
          WHERE ${open(claimId)} AND s.account_id = c.from_account_id FOR UPDATE OF s),
        settled AS (
          UPDATE site_claims c SET outcome = 'awarded', settled_at = now()
          WHERE ${open(claimId)} AND c.site_id IN (SELECT id FROM locked) RETURNING c.id),`,
    guard: sql`EXISTS (SELECT 1 FROM settled)`,
  });
  if (!moved) return false;
  await sendClaimMail(deps, disputeAwardedMail(moved.previous_email, moved, row.domain), moved.id);
  await sendClaimMail(deps, disputeDecidedMail(moved.new_email, moved, row.domain, true), moved.id);
  return true;
}

async function keep(deps: Deps, claimId: string, row: DisputeRow): Promise<boolean> {
  const kept = await queryRows(
    deps.db,
    sql`UPDATE site_claims c SET outcome = 'kept', settled_at = now() WHERE ${open(claimId)} RETURNING c.id`,
  );
  if (kept.length === 0) return false;
  await sendClaimMail(deps, disputeDecidedMail(row.claimant_email, row, row.domain, false), row.site_id);
  return true;
}

/** Nothing changed: decided meanwhile, or (award) the listing moved meanwhile. */
async function whyNot(deps: Deps, claimId: string): Promise<ServiceError> {
  const [now] = await queryRows<{ outcome: string }>(
    deps.db,
    sql`SELECT outcome FROM site_claims WHERE id = ${claimId}::uuid`,
  );
  return now?.outcome === 'disputed' ? ownerChanged() : decided();
}

async function readDecided(deps: Deps, claimId: string): Promise<DecidedDispute | undefined> {
  const [row] = await queryRows<DecidedDispute>(
    deps.db,
    sql`SELECT c.id AS claim_id, c.site_id, c.domain, c.outcome, s.account_id AS owner_account_id,
          c.to_account_id AS claimant_account_id, ${isoTimestamp(sql`c.settled_at`)} AS settled_at
        FROM site_claims c JOIN sites s ON s.id = c.site_id WHERE c.id = ${claimId}::uuid`,
  );
  return row;
}
