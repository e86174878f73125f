// Money in words, one place for every page, mail and the CLI-facing texts: an amount, and the refund rule in force
// (REFUND_ON_REJECTION, docs/payments.md "Refund on rejection").

/** Stripe amounts are in the currency's smallest unit; every currency we sell in has two decimals. */
export const moneyText = (amountCents: number, currency: string) =>
  `${(amountCents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** The rule, as /pricing, /submit and the checkout state it. */
export function refundRuleText(refundOnRejection: boolean): string {
  return refundOnRejection
    ? 'If an editor rejects your tool before it ever goes live, your payment is refunded in full.'
    : 'There is no refund: if an editor rejects your tool, the payment is kept.';
}

/** What a refund takes, after Stripe made it (Stripe's own words for card refunds). */
export const REFUND_ARRIVAL_TEXT = 'A refund usually reaches your card or account within 5 to 10 business days.';
