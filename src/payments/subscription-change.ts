import type { Deps } from '../deps';
import { applyMembershipChange } from './memberships';
import { membershipFromSubscription, tierForPrices } from './membership-rules';
import { SPONSOR_ACTIVE_STATUSES, applySponsorship, earlyDeletionSummary } from './sponsorships';
import { subscriptionView, type StripeEventEnvelope } from './stripe-event';

/**
 * customer.subscription.created/updated/deleted: a membership Price (or purpose=membership metadata) changes
 * the account's membership; otherwise the subscription may pay a sponsored listing.
 */
export async function applySubscriptionChange(deps: Deps, event: StripeEventEnvelope, deleted: boolean): Promise<string> {
  const sub = subscriptionView(event.data.object);
  const metaTier = sub.metadata.tier === 'memberFeature' || sub.metadata.tier === 'member' ? sub.metadata.tier : undefined;
  const tier =
    tierForPrices(sub.priceIds, deps.config.stripe?.prices) ?? (sub.metadata.purpose === 'membership' ? (metaTier ?? 'member') : undefined);
  if (tier) {
    return applyMembershipChange(
      deps,
      event,
      { customerId: sub.customerId, accountId: sub.metadata.account_id, subscriptionId: sub.subscriptionId, sameSubscriptionOnly: deleted },
      membershipFromSubscription(sub, tier, deleted),
    );
  }
  const active = !deleted && SPONSOR_ACTIVE_STATUSES.has(sub.status);
  const sponsorship = await applySponsorship(deps, event, sub.subscriptionId, active);
  if (sponsorship) return sponsorship;
  if (deleted && sub.metadata.purpose === 'sponsorship') return earlyDeletionSummary(sub.subscriptionId);
  return `subscription ${sub.subscriptionId} (${sub.status}) belongs to nothing here: ignored`;
}
