// MCP tools of ownership (docs/ownership.md): the twins of POST /api/v1/domains/{domain}/verify and POST /api/v1/claims.
import { z } from 'zod';
import { describePolicy } from '../../src/rate-limits/describe';
import { checkVerifyFields, verifyDomainShape } from '../../src/domains/domain-input';
import { domainRecordSchema } from '../../src/domains/domain-record';
import { addDomain } from '../../src/domains/domains';
import { verifyDomain } from '../../src/domains/verify-domain';
import { claimInputSchema } from '../../src/claims/claim-input';
import { claimSite } from '../../src/claims/claim-site';
import { siteStatusOutputSchema } from './output-schemas';
import { defineTool } from './define-tool';

export const verifyDomainTool = defineTool({
  name: 'verify_domain',
  title: 'Prove control of a domain',
  description:
    'Adds the domain to your account if needed (its registrable domain by the Public Suffix List) and checks one proof: ' +
    '`dns` (TXT `tooldir-verification=<token>` at `_tooldir.<domain>` or the domain), `http` (the token as the body of ' +
    '`https://<domain>/.well-known/tooldir-verification.txt`), or `email` (first with `email`, an address at the domain: a ' +
    'code is mailed; then with `code`). Returns the domain record: its token and the values to publish, and status ' +
    'verified once a proof holds. Errors: verification_failed (the reason in words), invalid_request (a public suffix, an ' +
    `IP address, an address not at the domain), rate_limited (${describePolicy('domainVerify')}). Same as POST /api/v1/domains/{domain}/verify.`,
  auth: 'api_key',
  scope: 'sites:submit',
  readOnly: false,
  inputSchema: z
    .object({
      domain: z.string({ error: 'domain must be a string' }).max(300).describe('The domain, e.g. example.com'),
      ...verifyDomainShape,
    })
    .superRefine(checkVerifyFields),
  outputSchema: domainRecordSchema,
  async run(caller, input) {
    const actor = await caller.actor();
    await caller.limit('domainVerify', actor.accountId);
    await addDomain({ deps: caller.deps, actor, input: { domain: input.domain } });
    return (await verifyDomain({ deps: caller.deps, actor, input })).record;
  },
});

export const claimSiteTool = defineTool({
  name: 'claim_site',
  title: 'Claim the listing of a URL on your verified domain',
  description:
    'Moves the listing of `url` from the account that submitted it into yours, when you hold a verified proof of its ' +
    'domain (verify_domain). The previous account is mailed and loses it; what was paid stays with the listing. Returns ' +
    'the site record. Errors: domain_not_verified, not_found (no listing has this URL), conflict (already yours), ' +
    `claim_disputed (its owner proved the domain too: an operator decides). ${describePolicy('domainChanges')}. Same as POST /api/v1/claims.`,
  auth: 'api_key',
  scope: 'sites:submit',
  readOnly: false,
  inputSchema: claimInputSchema,
  outputSchema: siteStatusOutputSchema,
  async run(caller, input) {
    const actor = await caller.actor();
    await caller.limit('domainChanges', actor.accountId);
    return claimSite({ deps: caller.deps, actor, input });
  },
});
