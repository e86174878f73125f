// The "Verified maker" mark (docs/ownership.md "The mark"): a listing whose owning account holds a verified, unexpired
// proof of the domain of its URL. Computed where it is read, so a proof made, lapsed or removed shows at once.
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { proofMethods, type ProofMethod } from './domain-record';

/** The host of a stored canonical URL (lower-case, `www.` already dropped, ASCII: src/submissions/url.ts). */
const hostOf = (canonicalUrl: SQL) => sql`substring(${canonicalUrl} from '^[a-z][a-z0-9+.-]*://([^/:?#]+)')`;

/**
 * A column of the owner's proof of the domain of `s` (alias of sites), or NULL: one probe of the owner's few proofs
 * by the (account_id, domain) key. A proof of a domain covers the hosts under it; the list decides which domains can
 * be proven at all (never a public suffix), so a proof of alice.github.io never covers bob.github.io.
 */
const verifiedProof = (column: SQL) => sql`(SELECT ${column} FROM domain_proofs dp
  WHERE dp.account_id = s.account_id AND dp.status = 'verified' AND (dp.expires_at IS NULL OR dp.expires_at > now())
    AND (${hostOf(sql`s.canonical_url`)} = dp.domain OR right(${hostOf(sql`s.canonical_url`)}, length(dp.domain) + 1) = '.' || dp.domain)
  ORDER BY dp.verified_at LIMIT 1)`;
/** The method of that proof: the mark's `verified_method`. */
export const verifiedMethodSql = verifiedProof(sql`dp.method`);

/** The domain the owner proved for `s` (the mark's domain), or NULL: the registry API names servers after it. */
export const verifiedDomainSql = verifiedProof(sql`dp.domain`);

/** A live (verified, unexpired) proof of `domain` by `account` (an id or a column): claims and superseding ask this. */
export const liveProofSql = (
  account: unknown,
  domain: string,
) => sql`EXISTS (SELECT 1 FROM domain_proofs dp WHERE dp.account_id = ${account}
  AND dp.domain = ${domain} AND dp.status = 'verified' AND (dp.expires_at IS NULL OR dp.expires_at > now()))`;

/** The fields of the mark, present only on a marked listing (so records of unmarked ones keep their shape). */
export const verifiedMarkSchema = {
  verified_owner: z
    .literal(true)
    .optional()
    .describe('Present (true) when the listing\'s owner proved control of its domain: the "Verified maker" mark'),
  verified_method: z
    .enum(proofMethods)
    .optional()
    .describe('How the owner proved the domain (dns, http or email); present with verified_owner'),
};

/** The mark's fields of a row's verified_method column. */
export function verifiedMark(method: string | null | undefined): {
  verified_owner?: true;
  verified_method?: ProofMethod;
} {
  return method && (proofMethods as readonly string[]).includes(method)
    ? { verified_owner: true, verified_method: method as ProofMethod }
    : {};
}
