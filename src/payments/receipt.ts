import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { sendSubmissionMail } from '../accounts/account-mail';
import { planKind, planPrices, type PlanName } from '../catalog/plans';
import { planTitles } from '../submissions/plan-words';
import { moneyText, refundRuleText } from '../submissions/money-words';
import type { CheckoutSessionView } from './stripe-event';

/**
 * The receipt of a submission's payment (a transactional mail, docs/account.md "Mail"), sent by the delivery that
 * promoted the record, so once per payment whatever Stripe redelivers: what was bought, the amount and currency
 * charged, the tax line when Stripe Tax added one, and the invoice's page when Stripe made an invoice. A failure
 * is logged and never fails the webhook: the payment is applied either way.
 */
export async function sendPaymentReceipt(deps: Deps, siteId: string, session: CheckoutSessionView): Promise<void> {
  const [site] = await queryRows<{
    account_id: string;
    notify_email: string | null;
    name: string;
    url: string;
    plan: PlanName;
  }>(
    deps.db,
    sql`SELECT s.account_id, COALESCE(s.email, a.email) AS notify_email, s.name, s.url, s.plan
        FROM sites s JOIN accounts a ON a.id = s.account_id WHERE s.id = ${siteId}::uuid`,
  );
  if (!site) return;
  const kind = planKind(site.plan);
  const price = planPrices[kind];
  const currency = session.currency ?? price.currency;
  const charged = session.amountTotal ?? price.amountCents;
  const lines = [
    'Thank you: your payment was received.',
    '',
    `What you bought: ${planTitles[kind]} listing of "${site.name}" (${site.url}), ${price.recurring ? 'billed monthly' : 'a one-time payment'}.`,
    `Amount paid: ${moneyText(charged, currency)}`,
  ];
  if (session.amountTax) lines.push(`Tax (included in the amount): ${moneyText(session.amountTax, currency)}`);
  const invoice = session.invoiceId ? await invoiceLink(deps, session.invoiceId) : undefined;
  if (invoice) lines.push(`Invoice: ${invoice}`);
  if (session.paymentIntentId) lines.push(`Payment reference: ${session.paymentIntentId}`);
  lines.push(
    '',
    `Your tool is now queued: we read its website, then an editor reviews it. ${refundRuleText(deps.config.refundOnRejection)}`,
  );
  await sendSubmissionMail(deps, {
    accountId: site.account_id,
    to: site.notify_email,
    kind: 'receipt',
    siteId,
    subject: `Receipt: ${planTitles[kind]} listing of ${site.name}, ${moneyText(charged, currency)}`,
    text: `${lines.join('\n')}\n`,
  });
}

/** Stripe's page of the invoice, or nothing (an invoice we cannot read now leaves the line out, never the mail). */
async function invoiceLink(deps: Deps, invoiceId: string): Promise<string | undefined> {
  try {
    return await deps.payments.invoiceUrl(invoiceId);
  } catch (error) {
    deps.log.warn('invoice link for the receipt unavailable', { invoice: invoiceId, err: String(error) });
    return undefined;
  }
}
