// Superseding (docs/ownership.md "Superseding"): when the verified owner of a URL's domain submits that URL, the
// unpaid records other accounts hold for it are closed, so none of them can be paid after the owner's submission.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import { sqlWords } from '../db/sql-format';
import { payableStates } from '../catalog/payment-states';
import { domainOfUrl } from '../domains/domain-options';
import { liveProofSql } from '../domains/verified-mark';

/**
 * Closes other accounts' open or expired unpaid records of `canonicalUrl` (state `superseded`, with why), in one
 * statement conditioned on the caller's live proof of the URL's registrable domain, and expires their checkout
 * links. A payment that still arrives for one is refunded (it has nowhere to go). Returns how many were closed.
 */
export async function supersedeUnpaidOfOthers(
  deps: Deps,
  actor: Actor,
  target: { url: string; canonicalUrl: string },
): Promise<number> {
  const domain = await domainOfUrl(deps, target.url);
  if (!domain) return 0;
  const note = `The maker of this tool listed it themselves (the verified owner of ${domain} submitted this URL). Nothing was charged.`;
  const closed = await queryRows<{ checkout_session_id: string }>(
    deps.db,
    sql`UPDATE pending_submissions SET state = 'superseded', state_note = ${note}
        WHERE canonical_url = ${target.canonicalUrl} AND account_id <> ${actor.accountId}::uuid
          AND state IN (${sqlWords(payableStates)}) AND ${liveProofSql(actor.accountId, domain)}
        RETURNING checkout_session_id`,
  );
  for (const row of closed) deps.defer(deps.payments.expireCheckout(row.checkout_session_id));
  return closed.length;
}
