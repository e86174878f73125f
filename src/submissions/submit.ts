import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { ServiceError } from '../errors';
import { normalizeName } from './name';
import { canonicalUrl } from './url';
import { decideSubmit } from './rules';
import { utcDay } from '../utc-day';
import type { SubmitInput } from './submit-input';
import { defaultPlan, type PlanName } from '../catalog/plans';
import { readSubmitContext } from './submit-context';
import { queueMemberSubmission } from './queue-member-submission';
import { requestPayment } from './request-payment';
import { alreadySubmitted } from './already-submitted';
import { supersedeUnpaidOfOthers } from './supersede-unpaid';
import type { PaymentReason, PendingRecord, QueuedResponse } from './record-schemas';
import { requireKnownCategories, withCategoriesInPlace } from '../categories/categories';

export type SubmitResult = { kind: 'queued'; body: QueuedResponse } | { kind: 'payment_required'; body: PendingRecord };

/**
 * Submit a tool (reference 4.1, 4.6). Reads the caller's context in one statement, decides with the pure
 * rules, then either queues (quota use + insert in one atomic statement) or makes a checkout link and
 * stores the pending record (one statement after the payment provider answers).
 */
export async function submitSite({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: SubmitInput;
}): Promise<SubmitResult> {
  // An unknown category is a 400 naming it before anything is written or a checkout made (one read, only when given).
  await requireKnownCategories(deps, input.categories);
  const now = deps.now();
  const url = new URL(input.url);
  const target = {
    canonicalUrl: canonicalUrl(url),
    normalizedName: normalizeName(input.name),
  };
  const day = utcDay(now);
  const context = await readSubmitContext(deps.db, { accountId: actor.accountId, day, ...target });
  if (!context) throw new ServiceError('unauthorized', 'The API key does not belong to an account.');
  if (context.existing) throw alreadySubmitted(actor, context.existing, deps.origin);
  const planned = { ...input, plan: resolvePlan(input.plan, context.pending) };

  const decision = decideSubmit({
    membership: context.membership,
    plan: planned.plan,
    usedToday: context.usedToday,
    limits: deps.config.dailyLimits,
    hasPendingForUrl: Boolean(context.pending),
    now,
  });

  let reason: PaymentReason;
  if (decision.path === 'queue') {
    const queued = await withCategoriesInPlace(() =>
      queueMemberSubmission(deps, actor, {
        input: planned,
        ...target,
        day,
        dailyLimit: decision.dailyLimit,
        pending: context.pending,
      }),
    );
    if (queued) {
      await supersedeUnpaidOfOthers(deps, actor, { url: input.url, ...target });
      return { kind: 'queued', body: queued };
    }
    // Another request took the last unit of quota between our read and our write.
    reason = context.pending ? 'payment_pending' : 'quota_exceeded';
  } else {
    reason = decision.reason;
  }
  const body = await requestPayment(deps, actor, { input: planned, ...target, reason, pending: context.pending });
  await supersedeUnpaidOfOthers(deps, actor, { url: input.url, ...target });
  return { kind: 'payment_required', body };
}

/**
 * The plan of a submit that names none: basic for a new submission (the reference's default), the record's own
 * plan on a re-submit of a URL that waits for payment, so a fresh checkout link does not quietly downgrade it.
 */
export function resolvePlan(requested: PlanName | undefined, pending: { plan: PlanName } | undefined): PlanName {
  return requested ?? pending?.plan ?? defaultPlan;
}
