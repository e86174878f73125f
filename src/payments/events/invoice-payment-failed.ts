import type { StripeEventHandler } from '../handler';
import { applyInvoiceChange } from '../invoice-change';

/** invoice.payment_failed: a membership turns past_due but lasts until its paid period ends. */
export const invoicePaymentFailed: StripeEventHandler = (deps, event) => applyInvoiceChange(deps, event, false);
