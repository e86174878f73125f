// Claiming a listing (docs/ownership.md "Claims"): the account that proved the listing's domain takes it from the
// account that submitted it, unless that account proved the domain too (then the operator decides).
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { canonicalUrl } from '../submissions/url';
import { getSubmission } from '../submissions/get';
import type { SiteDetailRecord } from '../submissions/record-schemas';
import { domainOfUrl } from '../domains/domain-options';
import { liveProofSql } from '../domains/verified-mark';
import { moveListing, sendClaimMail } from './move-listing';
import type { ClaimInput } from './claim-input';
import { claimedMail } from './claim-mail';

const holdsProof = liveProofSql;

/**
 * Moves the listing of `input.url` into the caller's account (./move-listing.ts: the owner, the notification address
 * (the new account's), a `claimed` history entry, the previous owner's pending edit superseded, a `site.claimed`
 * event for both accounts' endpoints; what was paid stays with the listing). 404 no listing with that URL; 409
 * conflict when it is yours already; 403 domain_not_verified without a live proof of its registrable domain; 409
 * claim_disputed (recorded for the operator) when its owner holds such a proof too.
 */
export async function claimSite({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: ClaimInput;
}): Promise<SiteDetailRecord> {
  const canonical = canonicalUrl(new URL(input.url.trim()));
  const domain = await domainOfUrl(deps, input.url.trim());
  const [site] = await queryRows<{ id: string; account_id: string; owner_holds: boolean; claimant_holds: boolean }>(
    deps.db,
    sql`SELECT s.id, s.account_id, ${domain ? holdsProof(sql`s.account_id`, domain) : sql`false`} AS owner_holds,
          ${domain ? holdsProof(actor.accountId, domain) : sql`false`} AS claimant_holds
        FROM sites s WHERE s.canonical_url = ${canonical} AND s.withdrawn_at IS NULL`,
  );
  if (!site) throw new ServiceError('not_found', 'No listing has this URL.');
  if (site.account_id === actor.accountId)
    throw new ServiceError('conflict', 'This listing is already in your account.', { site_id: site.id });
  if (!domain || !site.claimant_holds) {
    throw new ServiceError(
      'domain_not_verified',
      `Prove control of ${domain ?? 'the domain of this URL'} first (POST /api/v1/domains, then verify it).`,
    );
  }
  if (site.owner_holds) {
    await queryRows(
      deps.db,
      sql`INSERT INTO site_claims (id, site_id, from_account_id, to_account_id, domain, outcome, site_status)
          SELECT ${crypto.randomUUID()}::uuid, s.id, s.account_id, ${actor.accountId}::uuid, ${domain}, 'disputed', s.status FROM sites s WHERE s.id = ${site.id}::uuid
          ON CONFLICT (site_id, to_account_id) WHERE outcome = 'disputed' AND settled_at IS NULL DO NOTHING`,
    );
    throw new ServiceError(
      'claim_disputed',
      `The listing's owner has proved ${domain} too: an operator will decide (the claim is recorded).`,
    );
  }
  const moved = await moveListing(deps, {
    siteId: site.id,
    fromAccountId: site.account_id,
    toAccountId: actor.accountId,
    domain,
    guard: sql`NOT ${holdsProof(sql`s.account_id`, domain)}`,
  });
  if (!moved) throw new ServiceError('conflict', 'The listing changed while it was being claimed; try again.');
  await sendClaimMail(deps, claimedMail(moved.previous_email, moved, domain), moved.id);
  return getSubmission({ deps, actor, input: { siteId: moved.id } }) as Promise<SiteDetailRecord>;
}
