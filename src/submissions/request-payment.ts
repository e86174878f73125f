import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { refundRuleText } from './money-words';
import type { CheckoutSession } from '../adapters/payments/types';
import type { Actor } from '../accounts/actor';
import { isUniqueViolation, queryRows } from '../db/client';
import type { PlannedSubmitInput } from './submit-input';
import type { PaymentReason, PendingRecord } from './record-schemas';
import type { PendingRow } from './records';
import { pendingRecordColumns, toPendingRecord } from './records';
import { recordCheckoutSession } from './checkout-record';
import { planKind } from '../catalog/plans';

interface Args {
  input: PlannedSubmitInput;
  canonicalUrl: string;
  normalizedName: string;
  reason: PaymentReason;
  pending?: { siteId: string; version: number; checkoutSessionId: string };
}

/** Lost races on one URL's pending record before giving up (five submits at once lose at most a few). */
const MAX_ATTEMPTS = 4;

/**
 * The payment path: make the checkout link first, then store the pending record with it in one statement
 * (a plain insert the first time, an upsert on a re-submit), so no pending record ever exists without a link. Re-submitting an unpaid URL replaces the record
 * (same site_id, latest name/plan/e-mail, fresh link) and expires the old link so it cannot be paid twice.
 */
export async function requestPayment(deps: Deps, actor: Actor, a: Args, attempt = 1): Promise<PendingRecord> {
  const siteId = a.pending?.siteId ?? crypto.randomUUID();
  const version = (a.pending?.version ?? 0) + 1;
  const checkout = await deps.payments.createCheckout({
    siteId,
    plan: a.input.plan,
    kind: planKind(a.input.plan),
    name: a.input.name,
    url: a.input.url,
    email: a.input.email,
    version,
    origin: deps.origin,
    notice: refundRuleText(deps.config.refundOnRejection),
  });
  const written: Attempt = { siteId, version, checkout };
  const rows = await (a.pending
    ? replacePending(deps, actor, a, written)
    : insertPending(deps, actor, a, written)
  ).catch((error: unknown) => {
    // Submits racing on one URL: the record's id was written by another submit between our read and our upsert
    // (its key is not the upsert's arbiter). That is the same lost race as an upsert that wrote nothing.
    if (isUniqueViolation(error)?.constraint === 'pending_submissions_pkey') return [];
    throw error;
  });
  const row = rows[0];
  if (!row) {
    // A concurrent submit created (or replaced) this URL's pending record under another id: retire our link, use theirs.
    deps.defer(deps.payments.expireCheckout(checkout.sessionId));
    if (attempt >= MAX_ATTEMPTS) throw new Error('pending record kept changing under a re-submit');
    const [current] = await queryRows<{ id: string; version: number; checkout_session_id: string }>(
      deps.db,
      sql`SELECT id, version, checkout_session_id FROM pending_submissions
          WHERE account_id = ${actor.accountId} AND canonical_url = ${a.canonicalUrl}`,
    );
    const pending = current && {
      siteId: current.id,
      version: Number(current.version),
      checkoutSessionId: current.checkout_session_id,
    };
    return requestPayment(deps, actor, { ...a, pending, reason: pending ? 'payment_pending' : a.reason }, attempt + 1);
  }
  if (row.replaced_session && row.replaced_session !== checkout.sessionId) {
    deps.defer(deps.payments.expireCheckout(row.replaced_session));
  }
  return toPendingRecord(row);
}

type Written = PendingRow & { replaced_session: string | null };
/** What this attempt writes: the record's id, its version and the link just made for it. */
type Attempt = { siteId: string; version: number; checkout: CheckoutSession };

const values = (actor: Actor, a: Args, siteId: string, version: number, checkout: CheckoutSession) =>
  sql`(${siteId}, ${actor.accountId}, ${a.input.name}, ${a.input.url}, ${a.canonicalUrl}, ${a.normalizedName},
    ${a.input.plan}, ${a.input.email ?? null}, ${a.reason}, ${version}, 'open', ${checkout.sessionId},
    ${checkout.url}, ${checkout.expiresAt.toISOString()},
    ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(a.input.categories ?? [])}::jsonb)),
    ${a.input.mcp_url ?? null}::text)`;

/**
 * Every session we make is recorded, in the statement that stores the record it pays for, even when a concurrent
 * submit wins the race and this one is retired: a payment on it is then ours to refund, never a stranger's.
 */
const recordSession = (actor: Actor, a: Args, w: Attempt) =>
  recordCheckoutSession(w.checkout, {
    purpose: 'submission',
    accountId: actor.accountId,
    siteId: w.siteId,
    plan: a.input.plan,
  });

/**
 * The first unpaid record for this URL (the common case): a plain insert (with the session's record). If a concurrent submit got there
 * first, nothing is written and no row comes back, and the caller retries as a re-submit.
 */
function insertPending(deps: Deps, actor: Actor, a: Args, w: Attempt) {
  return queryRows<Written>(
    deps.db,
    sql`WITH recorded AS (${recordSession(actor, a, w)})
        INSERT INTO pending_submissions AS p (id, account_id, name, url, canonical_url, normalized_name, plan, email,
          reason, version, state, checkout_session_id, checkout_url, expires_at, categories, mcp_url)
        VALUES ${values(actor, a, w.siteId, w.version, w.checkout)}
        ON CONFLICT (account_id, canonical_url) DO NOTHING
        RETURNING ${pendingRecordColumns}, NULL::text AS replaced_session`,
  );
}

/**
 * A re-submit of an unpaid URL replaces the record in place. `previous` locks the current row and reads its
 * latest committed session: the one this upsert really replaces, even when a concurrent re-submit wrote it
 * after our read. It is referenced in the DO UPDATE condition so it runs BEFORE the row is updated: evaluated
 * only by the final SELECT, it would run after the update, and FOR UPDATE skips a row this same statement
 * already modified (no old session, no expiry).
 */
function replacePending(deps: Deps, actor: Actor, a: Args, w: Attempt) {
  return queryRows<Written>(
    deps.db,
    sql`WITH recorded AS (${recordSession(actor, a, w)}), previous AS (
        SELECT checkout_session_id FROM pending_submissions
        WHERE account_id = ${actor.accountId} AND canonical_url = ${a.canonicalUrl} FOR UPDATE
      ), upserted AS (
        INSERT INTO pending_submissions AS p (id, account_id, name, url, canonical_url, normalized_name, plan, email,
          reason, version, state, checkout_session_id, checkout_url, expires_at, categories, mcp_url)
        VALUES ${values(actor, a, w.siteId, w.version, w.checkout)}
        ON CONFLICT (account_id, canonical_url) DO UPDATE SET
          name = excluded.name, url = excluded.url, normalized_name = excluded.normalized_name, plan = excluded.plan,
          email = excluded.email, reason = excluded.reason, version = p.version + 1, state = 'open', state_note = NULL,
          checkout_session_id = excluded.checkout_session_id, checkout_url = excluded.checkout_url,
          expires_at = excluded.expires_at, categories = excluded.categories, mcp_url = excluded.mcp_url
        WHERE p.id = excluded.id AND (SELECT count(*) FROM previous) >= 0
        RETURNING *
      )
      SELECT ${pendingRecordColumns}, (SELECT checkout_session_id FROM previous) AS replaced_session FROM upserted p`,
  );
}
