// POST /api/v1/domains/{domain}/verify – check a DNS or HTTP proof, or send and check an e-mail code
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { describePolicy } from '../../../src/rate-limits/describe';
import { verifyDomain } from '../../../src/domains/verify-domain';
import {
  EMAIL_CODE_TRIES,
  EMAIL_CODE_TTL_MINUTES,
  EMAIL_PROOF_DAYS,
  RECHECK_GRACE_DAYS,
} from '../../../src/domains/proof-rules';
import { requireApiKey } from '../../middleware/api-key-auth';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { bearerSecurity } from '../schemas';
import { errorContent, keyedErrors } from '../error-responses';
import { DomainParam, DomainRecord, VerifyDomainRequest, verifyExamples } from './schemas';

const route = createRoute({
  method: 'post',
  path: '/api/v1/domains/{domain}/verify',
  operationId: 'verifyDomain',
  tags: ['Domains'],
  summary: 'Prove a domain',
  description:
    '`{"method":"dns"}` looks for the TXT record `tooldir-verification=<token>` at `_tooldir.<domain>` or at the domain ' +
    '(a value split over several strings is joined). `{"method":"http"}` fetches `https://<domain>/.well-known/tooldir-verification.txt` ' +
    '(then `www.`): its body must be the token; no redirect to another host, 10 s, 4 KiB. Either answers 200 with the ' +
    'verified record or 422 `verification_failed` with the reason in words (record not found, found on another name, ' +
    `wrong value, file redirected elsewhere). DNS and HTTP proofs are re-checked monthly and lapse ${RECHECK_GRACE_DAYS} days ` +
    'after a failed re-check (you are mailed first). `{"method":"email","email":…}` sends a code to that address, which ' +
    'must be at the domain itself (202); `{"method":"email","code":…}` checks it: it works once, for ' +
    `${EMAIL_CODE_TTL_MINUTES} minutes, ${EMAIL_CODE_TRIES} tries; an e-mail proof lasts ${EMAIL_PROOF_DAYS} days. ` +
    `Every call counts: ${describePolicy('domainVerify')}.`,
  security: bearerSecurity,
  middleware: [requireApiKey] as const,
  request: {
    params: DomainParam,
    body: {
      content: { 'application/json': { schema: VerifyDomainRequest, examples: verifyExamples } },
      required: true,
    },
  },
  responses: {
    200: {
      content: { 'application/json': { schema: DomainRecord } },
      description: 'Verified: status verified, method, verified_at',
    },
    202: {
      content: { 'application/json': { schema: DomainRecord } },
      description: 'E-mail code sent: the record shows email_code',
    },
    400: errorContent(
      'A malformed body, or an address not at the domain itself (a subdomain, a look-alike) (code invalid_request)',
    ),
    404: errorContent('Not one of your domains (code not_found)'),
    422: errorContent('The proof did not hold; the message says why (code verification_failed)'),
    ...keyedErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const actor = c.get('actor');
    await enforceRateLimit(c, 'domainVerify', actor.accountId);
    const input = { ...c.req.valid('json'), domain: c.req.valid('param').domain };
    const { record, emailSent } = await verifyDomain({ deps: c.get('deps'), actor, input });
    return c.json(record, emailSent ? 202 : 200);
  });
}
