import { z } from 'zod';
import { proofMethods } from './domain-record';

// The request bodies of the domain routes and tools, with every rule of each field (REST, MCP and pages validate with these).

export const addDomainInputSchema = z.object({
  domain: z
    .string({ error: (i) => (i.input === undefined ? 'domain is required' : 'domain must be a string') })
    .min(1, { error: 'domain is required' })
    .max(300, { error: 'domain must be at most 300 characters' })
    .describe('A domain (any spelling: upper-case, Unicode or punycode); its registrable domain is added')
    .meta({ example: 'example.com' }),
});

export const verifyDomainInputSchema = z
  .object({
    method: z
      .enum(proofMethods, { error: 'method must be dns, http or email' })
      .describe('Which proof to check (email: send a code, then send the code)'),
    email: z
      .string({ error: 'email must be a string' })
      .max(254, { error: 'email must be at most 254 characters' })
      .optional()
      .describe('method email, first step: the address at the domain to send the code to')
      .meta({ example: 'founder@example.com' }),
    code: z
      .string({ error: 'code must be a string' })
      .max(20, { error: 'code must be the 6 digits from the mail' })
      .optional()
      .describe('method email, second step: the 6-digit code from the mail')
      .meta({ example: '123456' }),
    port: z
      .number({ error: 'port must be a number' })
      .int()
      .min(1)
      .max(65535)
      .optional()
      .describe(
        'method http, local only (CRAWL_ALLOW_PRIVATE=true, a <name>.localhost domain): the port the file is served on',
      ),
  })
  .superRefine((value, ctx) => {
    if (value.method === 'email' && (value.email === undefined) === (value.code === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['email'],
        message: 'method email takes either email (to send a code) or code (to check it)',
      });
    }
    if (value.method !== 'email' && (value.email !== undefined || value.code !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['method'], message: 'email and code go with method email only' });
    }
    if (value.method !== 'http' && value.port !== undefined)
      ctx.addIssue({ code: 'custom', path: ['port'], message: 'port goes with method http only' });
  });
export type VerifyDomainInput = z.infer<typeof verifyDomainInputSchema>;
