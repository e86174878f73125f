/** What a proof is checked for: the domain, this account's token for it, and its tokens of other domains (to name a mix-up). */
export interface ProofSubject {
  domain: string;
  token: string;
  otherTokens: ReadonlyMap<string, string>;
}

/** A proof held, or did not and the account is told why in words. */
export type ProofOutcome = { ok: true } | { ok: false; reason: string };
