// The states of a pending-payment record (pending_submissions.state): the schema types its column with them, the
// payment handlers and the re-submit rule read them.

/**
 * A pending-payment record's state: open (its checkout link may be paid), expired (the link lapsed; a payment
 * that still arrives is honoured), refunded (a payment arrived for it that could not be applied, and was refunded),
 * superseded (the verified owner of its URL's domain submitted the URL: src/submissions/supersede-unpaid.ts).
 */
export const pendingStates = ['open', 'expired', 'refunded', 'superseded'] as const;
export type PendingState = (typeof pendingStates)[number];
/** The states a payment can still promote (not refunded). */
export const payableStates = ['open', 'expired'] as const satisfies readonly PendingState[];
/** The states a record reads as rejected in (with its state_note as the reason): no payment can promote it. */
export const closedStates = ['refunded', 'superseded'] as const satisfies readonly PendingState[];
export const isClosedState = (state: PendingState) => (closedStates as readonly string[]).includes(state);
