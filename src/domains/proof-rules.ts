// The numbers of domain proofs (docs/ownership.md), once.

/** An e-mail code works this long, this many tries, once. */
export const EMAIL_CODE_TTL_MINUTES = 30;
export const EMAIL_CODE_TRIES = 5;
/** An e-mail proof lasts a year. */
export const EMAIL_PROOF_DAYS = 365;
/** DNS and HTTP proofs are re-checked this often... */
export const RECHECK_EVERY_DAYS = 30;
/** ...and a failing one is checked again daily, and lapses this long after its first failure (mailed at once). */
export const RECHECK_GRACE_DAYS = 14;
export const FAILING_RECHECK_EVERY_HOURS = 24;
/** One proof's network work (DNS questions or the file fetch) ends after this long. */
export const PROOF_TIMEOUT_MS = 10_000;
/** The file of the HTTP proof is read up to this many bytes. */
export const HTTP_PROOF_MAX_BYTES = 4096;
/** An account holds at most this many domains (each is a row and a token). */
export const MAX_DOMAINS_PER_ACCOUNT = 50;
