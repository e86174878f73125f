// The mails a submitter gets, and which of them an account may turn off (docs/account.md "Mail"). A catalogue fact:
// the sender (src/accounts/account-mail.ts), the settings page and the docs read this one table.

/**
 * `transactional`: about money moving or a submission that cannot go on without its owner; always sent.
 * `status`: news of a submission's progress; honours the account's opt-out (one-click unsubscribe link).
 */
export const mailKinds = {
  /** A payment completed: what was bought, the amount, the tax line, the invoice link. */
  receipt: 'transactional',
  /** Every crawl attempt failed: the reason in words and how to fix it (change the address, or retry). */
  crawl_failed: 'transactional',
  /** Rejected before it went live, with the refund Stripe made (REFUND_ON_REJECTION). */
  rejected_refunded: 'transactional',
  /** Rejected (without a refund: a membership submission, or REFUND_ON_REJECTION=false), or taken down. */
  rejected: 'status',
  /** Published: the public page's address. */
  published: 'status',
  /**
   * The health re-checks of live listings: failing for 3 days, moved, hidden or restored. They are sent by
   * src/health/ with their own switch for now (accounts.health_mails, docs/health.md "Mails and the opt-out");
   * folding that switch into this sender's is open.
   */
  health: 'status',
} as const;

export type MailKind = keyof typeof mailKinds;

export const isTransactional = (kind: MailKind): boolean => mailKinds[kind] === 'transactional';
