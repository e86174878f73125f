import type { Deps } from '../deps';
import { applyMembershipChange } from './memberships';
import { membershipChange, recordedTier, paidPeriodFromSubscription, tierForPrices } from './membership-rules';
import { findOurSubscription, ignoreForeign } from './ours';
import { applySponsorship } from './sponsorships';
import { subscriptionView, type StripeEventEnvelope } from './stripe-event';

/**
 * customer.subscription.created/updated/deleted of a subscription one of our sessions started (any other is
 * ignored): a membership session changes its account's membership (the tier its Prices buy now, else the one
 * the session was made for); a submission session's subscription is a sponsored listing.
 */
export async function applySubscriptionChange(
  deps: Deps,
  event: StripeEventEnvelope,
  { deleted }: { deleted: boolean },
): Promise<string> {
  const sub = subscriptionView(event.data.object);
  const ours = await findOurSubscription(deps, sub.subscriptionId, sub.ref);
  if (!ours) return ignoreForeign(deps, event, `subscription ${sub.subscriptionId || '?'}`);
  const paidPeriod = paidPeriodFromSubscription(sub, { deleted });
  if (ours.purpose === 'membership') {
    const tier = tierForPrices(sub.priceIds, deps.config.stripe?.prices) ?? recordedTier(ours.plan);
    return applyMembershipChange(
      deps,
      event,
      {
        accountId: ours.accountId,
        customerId: sub.customerId,
        subscriptionId: sub.subscriptionId,
        sameSubscriptionOnly: deleted,
        deleted,
      },
      membershipChange(paidPeriod, tier),
    );
  }
  const sponsorship = await applySponsorship(deps, event, sub.subscriptionId, paidPeriod, { deleted });
  if (sponsorship) return sponsorship;
  if (deleted) return `sponsor subscription ${sub.subscriptionId} deleted before its site was queued: remembered`;
  return `sponsor subscription ${sub.subscriptionId} (${sub.status}): its site is not queued yet`;
}
