import type { Deps } from '../deps';
import { applyMembershipChange } from './memberships';
import { membershipFromInvoice, tierForPrices } from './membership-rules';
import { applySponsorship } from './sponsorships';
import { invoiceView, type StripeEventEnvelope } from './stripe-event';

/**
 * invoice.paid / invoice.payment_failed for a subscription: a membership keeps (paid: extends) its period;
 * a failed renewal marks it past_due but keeps it until the paid period ends. A paid sponsorship invoice
 * keeps (or sets) is_sponsor; a failed one changes nothing (the subscription's own update decides).
 */
export async function applyInvoiceChange(deps: Deps, event: StripeEventEnvelope, paid: boolean): Promise<string> {
  const invoice = invoiceView(event.data.object);
  if (!invoice.subscriptionId) return `invoice ${invoice.invoiceId} without a subscription: ignored`;
  const meta = invoice.subscriptionMetadata;
  const metaTier = meta.tier === 'memberFeature' || meta.tier === 'member' ? meta.tier : undefined;
  const tier =
    tierForPrices(invoice.priceIds, deps.config.stripe?.prices) ?? (meta.purpose === 'membership' ? (metaTier ?? 'member') : undefined);
  if (tier) {
    return applyMembershipChange(
      deps,
      event,
      { customerId: invoice.customerId, accountId: meta.account_id, subscriptionId: invoice.subscriptionId, sameSubscriptionOnly: true },
      membershipFromInvoice(invoice, tier, paid),
    );
  }
  if (!paid) return `invoice ${invoice.invoiceId} payment failed: the subscription's own update decides`;
  const sponsorship = await applySponsorship(deps, event, invoice.subscriptionId, true);
  return sponsorship ?? `invoice ${invoice.invoiceId} for subscription ${invoice.subscriptionId} belongs to nothing here: ignored`;
}
