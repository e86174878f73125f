import type { Deps } from '../deps';
import { applyMembershipChange } from './memberships';
import { membershipChange, recordedTier, paidPeriodFromInvoice, tierForPrices } from './membership-rules';
import { findOurSubscription, ignoreForeign } from './ours';
import { applySponsorship } from './sponsorships';
import { invoiceView, type StripeEventEnvelope } from './stripe-event';

/**
 * invoice.paid / invoice.payment_failed of a subscription one of our sessions started (any other invoice is
 * ignored): paid extends the period already paid for; a failed renewal marks it past_due and keeps that period
 * end, so a membership or a sponsor slot lasts until it ends.
 */
export async function applyInvoiceChange(
  deps: Deps,
  event: StripeEventEnvelope,
  { paid }: { paid: boolean },
): Promise<string> {
  const invoice = invoiceView(event.data.object);
  const ours = invoice.subscriptionId
    ? await findOurSubscription(deps, invoice.subscriptionId, invoice.ref)
    : undefined;
  if (!ours || !invoice.subscriptionId) return ignoreForeign(deps, event, `invoice ${invoice.invoiceId || '?'}`);
  const paidPeriod = paidPeriodFromInvoice(invoice, { paid });
  if (ours.purpose === 'membership') {
    const tier = tierForPrices(invoice.priceIds, deps.config.stripe?.prices) ?? recordedTier(ours.plan);
    return applyMembershipChange(
      deps,
      event,
      {
        accountId: ours.accountId,
        customerId: invoice.customerId,
        subscriptionId: invoice.subscriptionId,
        sameSubscriptionOnly: true,
      },
      membershipChange(paidPeriod, tier),
    );
  }
  const sponsorship = await applySponsorship(deps, event, invoice.subscriptionId, paidPeriod, { deleted: false });
  return (
    sponsorship ??
    `invoice ${invoice.invoiceId} of sponsor subscription ${invoice.subscriptionId}: its site is not queued yet`
  );
}
