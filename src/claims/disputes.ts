// Open claim disputes (docs/ownership.md "Claims"): a claim refused because the listing's owner holds a proof of its
// domain too. The operator page lists them; ./decide-dispute.ts is the operator's decision.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';

export interface OpenDispute {
  claim_id: string;
  site_id: string;
  name: string;
  url: string;
  status: string;
  domain: string;
  /** The listing's owner (who holds a proof too) and the account that claimed it. */
  owner_email: string;
  claimant_email: string;
  at: string;
}

/** The open disputes, oldest first (the one waiting longest on top), at most `limit`. */
export async function listOpenDisputes(deps: Pick<Deps, 'db'>, limit = 100): Promise<OpenDispute[]> {
  return queryRows<OpenDispute>(
    deps.db,
    sql`SELECT c.id AS claim_id, s.id AS site_id, s.name, s.url, s.status, c.domain,
          owner.email AS owner_email, claimant.email AS claimant_email, ${isoTimestamp(sql`c.at`)} AS at
        FROM site_claims c
        JOIN sites s ON s.id = c.site_id
        JOIN accounts owner ON owner.id = s.account_id
        JOIN accounts claimant ON claimant.id = c.to_account_id
        WHERE c.outcome = 'disputed' AND c.settled_at IS NULL
        ORDER BY c.at LIMIT ${limit}`,
  );
}
