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
import { announceWebhookEvents } from '../webhooks/announce';
import type { ClaimInput } from './claim-input';
import { claimedMail } from './claim-mail';

const holdsProof = liveProofSql;

/**
 * Moves the listing of `input.url` into the caller's account in one statement: the owner, the notification address
 * (the new account's), a `claimed` history entry, the previous owner's pending edit (superseded) and a `site.claimed`
 * event for both accounts' endpoints. What was paid stays with the listing. 404 no listing with that URL; 409
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
        FROM sites s WHERE s.canonical_url = ${canonical}`,
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
  const [moved] = await queryRows<{ id: string; name: string; url: string; previous_email: string }>(
    deps.db,
    sql`WITH moved AS (
          UPDATE sites s SET account_id = ${actor.accountId}::uuid, email = NULL
          WHERE s.id = ${site.id}::uuid AND s.account_id = ${site.account_id}::uuid AND NOT ${holdsProof(sql`s.account_id`, domain)}
          RETURNING s.id, s.name, s.url, s.status, s.live_url),
        claim AS (
          INSERT INTO site_claims (id, site_id, from_account_id, to_account_id, domain, outcome, site_status)
          SELECT ${crypto.randomUUID()}::uuid, m.id, ${site.account_id}::uuid, ${actor.accountId}::uuid, ${domain}, 'claimed', m.status FROM moved m RETURNING id),
        edits AS (
          UPDATE site_edits e SET status = 'superseded', decided_at = now()
          WHERE e.site_id IN (SELECT id FROM moved) AND e.status = 'pending' AND e.account_id = ${site.account_id}::uuid RETURNING e.id),
        events AS (
          INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, data, site_id)
          SELECT w.id, ${`evt_${crypto.randomUUID().replaceAll('-', '')}`}, 'site.claimed',
            jsonb_build_object('site_id', m.id, 'name', m.name, 'url', m.url, 'status', m.status, 'live_url', m.live_url,
              'domain', ${domain}::text, 'claimed', w.account_id = ${actor.accountId}::uuid),
            m.id
          FROM moved m JOIN webhooks w ON w.account_id IN (${actor.accountId}::uuid, ${site.account_id}::uuid) AND 'site.claimed' = ANY (w.events)
          RETURNING 1)
        SELECT m.id, m.name, m.url, a.email AS previous_email,
          (SELECT count(*) FROM claim) + (SELECT count(*) FROM edits) + (SELECT count(*) FROM events) AS writes
        FROM moved m JOIN accounts a ON a.id = ${site.account_id}::uuid`,
  );
  if (!moved) throw new ServiceError('conflict', 'The listing changed while it was being claimed; try again.');
  deps.defer(announceWebhookEvents(deps));
  try {
    await deps.mail.send(claimedMail(moved.previous_email, moved, domain));
  } catch (error) {
    deps.log.warn('claim mail not sent', { site_id: moved.id, err: String(error) });
  }
  return getSubmission({ deps, actor, input: { siteId: moved.id } }) as Promise<SiteDetailRecord>;
}
