import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { ServiceError } from '../errors';
import { dispatchCrawl } from './dispatch-crawl';
import { isUuid } from '../ids';
import { getSubmission, notFound } from './get';
import type { SiteRecord } from './record-schemas';
import { MAX_RETRIES_PER_DAY } from '../catalog/retry-limit';

/** The limit lives in the catalogue (src/catalog/retry-limit.ts), which the CLI and llms.txt read too. */
export { MAX_RETRIES_PER_DAY };

const today = sql`(now() AT TIME ZONE 'UTC')::date`;

/**
 * Puts one of the caller's crawl_failed submissions back to queued, without support: one conditional
 * statement checks owner, state and the day's allowance and starts a new round of crawl attempts (the offset;
 * crawl_attempts itself only grows, so each attempt keeps its own deduplication id). A lost race or a repeat
 * finds the site queued and is refused like any other state.
 */
export async function retrySite({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: { site_id: string };
}): Promise<SiteRecord> {
  if (!isUuid(input.site_id)) throw notFound();
  const [retried] = await queryRows<{ id: string; crawl_attempts: number }>(
    deps.db,
    sql`UPDATE sites SET status = 'queued', status_note = 'retry requested by the submitter',
          crawl_attempt_offset = crawl_attempts,
          manual_retries = CASE WHEN manual_retries_on = ${today} THEN manual_retries + 1 ELSE 1 END,
          manual_retries_on = ${today}
        WHERE id = ${input.site_id}::uuid AND account_id = ${actor.accountId}::uuid AND status = 'crawl_failed'
          AND (manual_retries_on IS DISTINCT FROM ${today} OR manual_retries < ${MAX_RETRIES_PER_DAY})
        RETURNING id, crawl_attempts`,
  );
  if (!retried) throw await whyNot(deps, actor, input.site_id);
  dispatchCrawl(deps, retried.id, Number(retried.crawl_attempts) + 1);
  const record = await getSubmission({ deps, actor, input: { siteId: retried.id } });
  return record as SiteRecord;
}

/** The refused retry's reason, read after the fact: unknown or not ours, another state, or the day's allowance spent. */
async function whyNot(deps: Deps, actor: Actor, siteId: string): Promise<ServiceError> {
  const [site] = await queryRows<{ status: string; spent: boolean; seconds_to_midnight: number }>(
    deps.db,
    sql`SELECT status, (manual_retries_on = ${today} AND manual_retries >= ${MAX_RETRIES_PER_DAY}) AS spent,
          ceil(extract(epoch FROM (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day') - now() AT TIME ZONE 'UTC'))::int AS seconds_to_midnight
        FROM sites WHERE id = ${siteId}::uuid AND account_id = ${actor.accountId}::uuid`,
  );
  if (!site) {
    // An unpaid submission is not a site yet: it has nothing to retry, and saying so is clearer than a 404.
    const [pending] = await queryRows<{ id: string }>(
      deps.db,
      sql`SELECT id FROM pending_submissions WHERE id = ${siteId}::uuid AND account_id = ${actor.accountId}::uuid`,
    );
    if (pending) return invalidState('pending_payment');
    return notFound();
  }
  if (site.status !== 'crawl_failed') return invalidState(site.status);
  if (site.spent) {
    return new ServiceError(
      'rate_limited',
      `This submission was retried ${MAX_RETRIES_PER_DAY} times today; retries start again at 00:00 UTC.`,
      { retryAfterSeconds: Math.max(1, Number(site.seconds_to_midnight)) },
    );
  }
  // It became retryable between the two statements (a concurrent retry cannot do that): ask the caller to repeat.
  return new ServiceError('conflict', 'The submission changed while retrying; try again.');
}

const invalidState = (status: string) =>
  new ServiceError(
    'invalid_state',
    `Only a submission whose crawl failed (crawl_failed) can be retried; this one is ${status}.`,
  );
