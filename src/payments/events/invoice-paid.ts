import type { StripeEventHandler } from '../handler';
import { applyInvoiceChange } from '../invoice-change';

/** invoice.paid: a membership's period is extended; a sponsorship keeps (or regains) is_sponsor. */
export const invoicePaid: StripeEventHandler = (deps, event) => applyInvoiceChange(deps, event, true);
