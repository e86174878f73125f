import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { isUniqueViolation, queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { MAX_RETRIES_PER_DAY } from '../catalog/retry-limit';
import { dispatchCrawl } from './dispatch-crawl';
import { getSubmission, notFound } from './get';
import { URL_CHANGED_NOTE } from './history-reasons';
import { isUuid } from '../ids';
import type { SiteRecord } from './record-schemas';
import { canonicalUrl } from './url';

const today = sql`(now() AT TIME ZONE 'UTC')::date`;

/**
 * Fixes a failed crawl's address (docs/pipeline.md "Fixing the address"): the owner of a crawl_failed submission
 * gives a new URL, already checked by submit's URL rules (editInputSchema). One conditional statement checks
 * owner, state, the day's retry allowance and that no other submission holds the URL's canonical form; it stores
 * the URL and queues the site for a new round of attempts, counted as a retry (src/submissions/retry.ts), and the
 * unique index on canonical_url settles a race with a submit of the same address. A payment stays with the
 * submission: nothing is charged again.
 */
export async function changeSiteUrl({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: { site_id: string; url: string };
}): Promise<SiteRecord> {
  if (!isUuid(input.site_id)) throw notFound();
  const canonical = canonicalUrl(new URL(input.url));
  let changed: { id: string; crawl_attempts: number } | undefined;
  try {
    [changed] = await queryRows<{ id: string; crawl_attempts: number }>(
      deps.db,
      sql`UPDATE sites s SET url = ${input.url}, canonical_url = ${canonical}, status = 'queued', status_note = ${URL_CHANGED_NOTE},
            metadata = NULL, crawl_attempt_offset = crawl_attempts,
            manual_retries = CASE WHEN manual_retries_on = ${today} THEN manual_retries + 1 ELSE 1 END,
            manual_retries_on = ${today}
          WHERE s.id = ${input.site_id}::uuid AND s.account_id = ${actor.accountId}::uuid AND s.status = 'crawl_failed'
            AND (s.manual_retries_on IS DISTINCT FROM ${today} OR s.manual_retries < ${MAX_RETRIES_PER_DAY})
            AND NOT EXISTS (SELECT 1 FROM sites o WHERE o.canonical_url = ${canonical} AND o.withdrawn_at IS NULL AND o.id <> s.id)
          RETURNING s.id, s.crawl_attempts`,
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  if (!changed) throw await whyNot(deps, actor, input.site_id, canonical);
  dispatchCrawl(deps, changed.id, Number(changed.crawl_attempts) + 1);
  return (await getSubmission({ deps, actor, input: { siteId: changed.id } })) as SiteRecord;
}

interface RefusalRow {
  status: string;
  spent: boolean;
  seconds_to_midnight: number;
  holder_id: string | null;
  holder_own: boolean | null;
  holder_name: string | null;
  holder_live_url: string | null;
}

/** Why the change was refused, read after the fact: not ours, another state, the address taken, the allowance spent. */
async function whyNot(deps: Deps, actor: Actor, siteId: string, canonical: string): Promise<ServiceError> {
  const [site] = await queryRows<RefusalRow>(
    deps.db,
    sql`SELECT s.status, (s.manual_retries_on = ${today} AND s.manual_retries >= ${MAX_RETRIES_PER_DAY}) AS spent,
          ceil(extract(epoch FROM (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day') - now() AT TIME ZONE 'UTC'))::int AS seconds_to_midnight,
          o.id AS holder_id, o.account_id = s.account_id AS holder_own, o.name AS holder_name,
          CASE WHEN o.status = 'live' THEN o.live_url END AS holder_live_url
        FROM sites s LEFT JOIN sites o ON o.canonical_url = ${canonical} AND o.withdrawn_at IS NULL AND o.id <> s.id
        WHERE s.id = ${siteId}::uuid AND s.account_id = ${actor.accountId}::uuid`,
  );
  if (!site) {
    const [pending] = await queryRows<{ id: string }>(
      deps.db,
      sql`SELECT id FROM pending_submissions WHERE id = ${siteId}::uuid AND account_id = ${actor.accountId}::uuid`,
    );
    return pending ? invalidState('pending_payment') : notFound();
  }
  if (site.status !== 'crawl_failed') return invalidState(site.status);
  if (site.holder_id) return addressTaken(deps, site);
  if (site.spent) {
    return new ServiceError(
      'rate_limited',
      `This submission was retried ${MAX_RETRIES_PER_DAY} times today (a new address counts as a retry); retries start again at 00:00 UTC.`,
      { retryAfterSeconds: Math.max(1, Number(site.seconds_to_midnight)) },
    );
  }
  return new ServiceError('conflict', 'The submission changed while changing its address; try again.');
}

/**
 * 409 already_submitted naming the listing that holds the address: the caller's own submission by name, id and
 * page; someone else's live tool by name and public page (public anyway); anyone else's other record stays
 * anonymous, like submit's 409.
 */
function addressTaken(deps: Deps, holder: RefusalRow): ServiceError {
  if (holder.holder_own) {
    return new ServiceError(
      'already_submitted',
      `You already submitted this address as "${holder.holder_name}": ${deps.origin}/account/submissions/${holder.holder_id}`,
      { site_id: holder.holder_id!, field: 'url' },
    );
  }
  if (holder.holder_live_url) {
    return new ServiceError(
      'already_submitted',
      `This address is already listed as "${holder.holder_name}": ${holder.holder_live_url}`,
      { field: 'url' },
    );
  }
  return new ServiceError('already_submitted', 'This address has already been submitted by someone else.', {
    field: 'url',
  });
}

const invalidState = (status: string) =>
  new ServiceError(
    'invalid_state',
    `Only a submission whose crawl failed (crawl_failed) can change its address; this one is ${status}.`,
  );
