// A domain as the API, the MCP tools, the CLI and the account area show it (docs/ownership.md "A domain record").
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { isoTimestamp } from '../db/sql-format';
import { isoTimestampSchema } from '../timestamp-schemas';
import { DNS_RECORD_PREFIX, dnsRecordName, httpProofUrl } from './proof-locations';
import { RECHECK_GRACE_DAYS } from './proof-rules';

export const proofMethods = ['dns', 'http', 'email'] as const;
export type ProofMethod = (typeof proofMethods)[number];

export const domainRecordSchema = z.object({
  domain: z
    .string()
    .describe('The registrable domain (Public Suffix List, private section included), lower-case ASCII (punycode)')
    .meta({ example: 'example.com' }),
  status: z
    .enum(['pending', 'verified'])
    .describe('verified once one proof held; pending before, and again after a proof lapsed'),
  token: z
    .string()
    .describe("This account's token for this domain: the value the DNS record and the file must hold")
    .meta({ example: 'td_3kQ9vX7mB2nR8pL4sW6yZ1' }),
  method: z.enum(proofMethods).nullable().describe('The proof that holds: dns, http or email; null while pending'),
  verified_at: isoTimestampSchema('When the proof that holds was made').nullable(),
  expires_at: isoTimestampSchema(
    'An e-mail proof ends a year after it was made; null for DNS and HTTP, which are re-checked monthly',
  ).nullable(),
  failing_since: isoTimestampSchema(
    'The first failed monthly re-check of a DNS or HTTP proof; null while it passes',
  ).nullable(),
  lapses_at: isoTimestampSchema(
    `When a failing proof lapses (${RECHECK_GRACE_DAYS} days after failing_since) unless the record or file is back`,
  ).nullable(),
  email_code: z
    .object({
      sent_to: z.string().describe('The address the code was sent to'),
      expires_at: isoTimestampSchema('The code works until then'),
      tries_left: z.number().int().min(0),
    })
    .nullable()
    .describe('An e-mail code waiting to be typed, or null'),
  methods: z
    .object({
      dns: z
        .object({
          name: z.string().meta({ example: '_tooldir.example.com' }),
          type: z.literal('TXT'),
          value: z.string().meta({ example: 'tooldir-verification=td_3kQ9vX7mB2nR8pL4sW6yZ1' }),
        })
        .describe(`A TXT record with this value at this name (or at the domain itself)`),
      http: z
        .object({
          url: z.string().meta({ example: 'https://example.com/.well-known/tooldir-verification.txt' }),
          body: z.string().meta({ example: 'td_3kQ9vX7mB2nR8pL4sW6yZ1' }),
        })
        .describe('A file at this URL (or at www.) whose body is the token; no redirect to another host'),
      email: z
        .object({ address_domain: z.string().meta({ example: 'example.com' }) })
        .describe('A code sent to any address at exactly this domain (not a subdomain)'),
    })
    .describe('How to prove the domain, with the values to copy'),
  created_at: isoTimestampSchema('When the account added the domain'),
});
export type DomainRecord = z.infer<typeof domainRecordSchema>;

/** Columns of a domain record over `domain_proofs d` (timestamps formatted by the database). */
export const domainColumns = sql`d.domain, d.status, d.token, d.method, ${isoTimestamp(sql`d.verified_at`)} AS verified_at,
  ${isoTimestamp(sql`d.expires_at`)} AS expires_at, ${isoTimestamp(sql`d.failing_since`)} AS failing_since,
  ${isoTimestamp(sql`(d.failing_since + ${`${RECHECK_GRACE_DAYS} days`}::interval)`)} AS lapses_at,
  d.email_address, ${isoTimestamp(sql`d.email_code_expires_at`)} AS email_code_expires_at,
  (d.email_code_hash IS NOT NULL AND d.email_code_expires_at > now() AND d.email_code_tries > 0) AS email_code_waiting,
  d.email_code_tries, ${isoTimestamp(sql`d.created_at`)} AS created_at`;

export interface DomainRow {
  domain: string;
  status: 'pending' | 'verified';
  token: string;
  method: ProofMethod | null;
  verified_at: string | null;
  expires_at: string | null;
  failing_since: string | null;
  lapses_at: string | null;
  email_address: string | null;
  email_code_expires_at: string | null;
  email_code_waiting: boolean;
  email_code_tries: number;
  created_at: string;
}

/** The record of a row; `origin` is ours, for the local `<name>.localhost` file URL's scheme. */
export function toDomainRecord(row: DomainRow, options: { allowLocalNames: boolean }): DomainRecord {
  return {
    domain: row.domain,
    status: row.status,
    token: row.token,
    method: row.status === 'verified' ? row.method : null,
    verified_at: row.status === 'verified' ? row.verified_at : null,
    expires_at: row.status === 'verified' ? row.expires_at : null,
    failing_since: row.status === 'verified' ? row.failing_since : null,
    lapses_at: row.status === 'verified' ? row.lapses_at : null,
    email_code:
      row.email_code_waiting && row.email_address && row.email_code_expires_at
        ? {
            sent_to: row.email_address,
            expires_at: row.email_code_expires_at,
            tries_left: Number(row.email_code_tries),
          }
        : null,
    methods: {
      dns: { name: dnsRecordName(row.domain), type: 'TXT', value: `${DNS_RECORD_PREFIX}${row.token}` },
      http: { url: httpProofUrl(row.domain, options), body: row.token },
      email: { address_domain: row.domain },
    },
    created_at: row.created_at,
  };
}
