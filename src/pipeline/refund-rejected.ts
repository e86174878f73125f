import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { notifyRejected } from './notify';
import { planKind, planPrices, type PlanName } from '../catalog/plans';

export type RefundJobResult =
  | { outcome: 'refunded'; refund_id: string; mailed: boolean }
  | { outcome: 'skipped'; reason: string };

interface DueRow {
  account_id: string;
  name: string;
  url: string;
  plan: PlanName;
  notify_email: string | null;
  review_reason: string | null;
  payment_intent: string | null;
  subscription_id: string | null;
  amount: number | string | null;
  currency: string | null;
}

/**
 * The refund job (docs/payments.md "Refund on rejection"): a paid submission an editor rejected before it ever went
 * live gets its payment back in full. The provider is called with an idempotency key of the site, so any number of
 * deliveries of this job (QStash at least once, the sweep's re-dispatch) make one refund and all read the same
 * refund back; the conditional UPDATE lets exactly one of them record it and send the mail with the refund's id.
 * A failure throws: the job answers non-2xx and is delivered again.
 */
export async function refundRejectedSubmission(deps: Deps, siteId: string): Promise<RefundJobResult> {
  const [due] = await queryRows<DueRow>(
    deps.db,
    sql`SELECT s.account_id, s.name, s.url, s.plan, COALESCE(s.email, a.email) AS notify_email, s.review_reason,
          s.stripe_payment_intent_id AS payment_intent, s.stripe_subscription_id AS subscription_id,
          c.amount_total AS amount, c.currency
        FROM sites s JOIN accounts a ON a.id = s.account_id
        LEFT JOIN checkout_sessions c ON c.id = s.stripe_checkout_session_id
        WHERE s.id = ${siteId}::uuid AND s.refund_state = 'due'`,
  );
  if (!due) return { outcome: 'skipped', reason: 'no refund due (made already, or never owed)' };
  const price = planPrices[planKind(due.plan)];
  const refund = await deps.payments.refundInFull({
    paymentIntentId: due.payment_intent ?? undefined,
    subscriptionId: due.payment_intent ? undefined : (due.subscription_id ?? undefined),
    reason: `rejected by review before it went live (submission ${siteId})`,
    idempotencyKey: `refund-rejected-${siteId}`,
    expected: {
      amount: due.amount === null ? price.amountCents : Number(due.amount),
      currency: due.currency ?? price.currency,
    },
  });
  const [recorded] = await queryRows<{ id: string }>(
    deps.db,
    sql`UPDATE sites SET refund_state = 'refunded', refund_id = ${refund.refundId}, refund_amount = ${refund.amount},
          refund_currency = ${refund.currency}, refunded_at = now()
        WHERE id = ${siteId}::uuid AND refund_state = 'due' RETURNING id`,
  );
  deps.log.info('rejected submission refunded', {
    site_id: siteId,
    refund_id: refund.refundId,
    recorded: Boolean(recorded),
  });
  if (!recorded) return { outcome: 'refunded', refund_id: refund.refundId, mailed: false };
  await notifyRejected(deps, {
    accountId: due.account_id,
    siteId,
    to: due.notify_email,
    name: due.name,
    url: due.url,
    reason: due.review_reason,
    wasLive: false,
    money: { kind: 'refunded', refundId: refund.refundId, amount: refund.amount, currency: refund.currency },
  });
  return { outcome: 'refunded', refund_id: refund.refundId, mailed: true };
}
