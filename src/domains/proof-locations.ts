// Where each proof is looked for (docs/ownership.md "The three proofs"): one place for the names, paths and prefix.

/** The TXT value is this prefix and the token. */
export const DNS_RECORD_PREFIX = 'tooldir-verification=';
/** The file of the HTTP proof, under the domain (or www.). */
export const HTTP_PROOF_PATH = '/.well-known/tooldir-verification.txt';

/** The name the DNS record is asked for first; the domain itself is the second. */
export const dnsRecordName = (domain: string) => `_tooldir.${domain}`;

const isLocalName = (domain: string) => domain.endsWith('.localhost');

/**
 * The file's URL as the account is told: https on the Internet; http for a local `<name>.localhost` domain
 * (CRAWL_ALLOW_PRIVATE), on the port given to the verify call.
 */
export function httpProofUrl(domain: string, options: { allowLocalNames: boolean; port?: number }): string {
  if (options.allowLocalNames && isLocalName(domain))
    return `http://${domain}${options.port ? `:${options.port}` : ''}${HTTP_PROOF_PATH}`;
  return `https://${domain}${HTTP_PROOF_PATH}`;
}

/** Every URL the HTTP proof tries, in order: the domain, then www. (a local name has no www.). */
export function httpProofUrls(domain: string, options: { allowLocalNames: boolean; port?: number }): string[] {
  const first = httpProofUrl(domain, options);
  if (options.allowLocalNames && isLocalName(domain)) return [first];
  return [first, `https://www.${domain}${HTTP_PROOF_PATH}`];
}
