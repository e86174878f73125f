// The states of a pending-payment record (pending_submissions.state): the schema types its column with them, the
// payment handlers and the re-submit rule read them.

/**
 * A pending-payment record's state: open (its checkout link may be paid), expired (the link lapsed; a payment
 * that still arrives is honoured), refunded (a payment arrived for it that could not be applied, and was refunded).
 */
export const pendingStates = ['open', 'expired', 'refunded'] as const;
export type PendingState = (typeof pendingStates)[number];
/** The states a payment can still promote (not refunded). */
export const payableStates = ['open', 'expired'] as const satisfies readonly PendingState[];
