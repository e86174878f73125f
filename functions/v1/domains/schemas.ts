// The domain routes' schemas: the record and bodies come from src/domains/ (one declaration for REST, MCP and the CLI).
import { z } from '@hono/zod-openapi';
import { domainRecordSchema } from '../../../src/domains/domain-record';
import { addDomainInputSchema, verifyDomainInputSchema } from '../../../src/domains/domain-input';
import { component } from '../schemas';

export const DomainRecord = component(domainRecordSchema, 'Domain');
export const DomainList = component(z.object({ domains: z.array(DomainRecord) }), 'DomainList');
export const AddDomainRequest = component(addDomainInputSchema, 'AddDomainRequest');
export const VerifyDomainRequest = component(verifyDomainInputSchema, 'VerifyDomainRequest');
export const DomainParam = z.object({
  domain: z
    .string()
    .max(300)
    .openapi({ description: 'One of your domains (any spelling of it)', example: 'example.com' }),
});

/** Examples of the verify body, one per step (openapi.json shows each). */
export const verifyExamples = {
  dns: { summary: 'Check the DNS TXT record', value: { method: 'dns' } },
  http: { summary: 'Check the file under /.well-known/', value: { method: 'http' } },
  email_send: {
    summary: 'Send a code to an address at the domain',
    value: { method: 'email', email: 'founder@example.com' },
  },
  email_code: { summary: 'Type the code from the mail', value: { method: 'email', code: '123456' } },
};
