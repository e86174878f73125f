// Proving a domain (docs/ownership.md "The three proofs"): one verb for the three methods and the e-mail code's two steps.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { domainColumns, toDomainRecord, type DomainRecord, type DomainRow, type ProofMethod } from './domain-record';
import { domainNotFound } from './domains';
import { domainOf } from './domain-options';
import type { VerifyDomainInput } from './domain-input';
import { checkDnsProof } from './dns-proof';
import { checkHttpProof } from './http-proof';
import { emailCodeMessage, hashEmailCode, newEmailCode, proofAddress } from './email-proof';
import type { ProofOutcome, ProofSubject } from './proof-outcome';
import { EMAIL_CODE_TRIES, EMAIL_CODE_TTL_MINUTES, EMAIL_PROOF_DAYS, PROOF_TIMEOUT_MS } from './proof-rules';

export type VerifyOutcome = { record: DomainRecord; emailSent: boolean };

/**
 * Checks one proof of one of the account's domains. dns and http: 200 with the verified record, or 422
 * verification_failed with the reason in words (nothing changes). email with `email`: sends a code (202, the record
 * shows `email_code`); email with `code`: verifies (200) or 422 (a wrong code uses one of its 5 tries).
 */
export async function verifyDomain({
  deps,
  actor,
  input,
}: {
  deps: Deps;
  actor: Actor;
  input: VerifyDomainInput & { domain: string };
}): Promise<VerifyOutcome> {
  const domain = await domainOf(deps, input.domain);
  const subject = await proofSubject(deps, actor.accountId, domain);
  if (input.method === 'email' && input.email !== undefined) return sendEmailCode(deps, actor, subject, input.email);
  if (input.method === 'email')
    return { record: await checkEmailCode(deps, actor, subject, input.code ?? ''), emailSent: false };
  if (input.port !== undefined && !(deps.config.crawl.allowPrivate && domain.endsWith('.localhost'))) {
    throw new ServiceError(
      'invalid_request',
      'port is only for a <name>.localhost domain with CRAWL_ALLOW_PRIVATE=true.',
      { field: 'port' },
    );
  }
  const outcome = await checkNetworkProof(deps, input.method, subject, input.port);
  if (!outcome.ok) throw new ServiceError('verification_failed', `${domain} is not verified: ${outcome.reason}.`);
  return { record: await markVerified(deps, actor.accountId, domain, input.method, input.port), emailSent: false };
}

/** Runs the DNS or HTTP check with its 10-second deadline; shared with the monthly re-check. */
export async function checkNetworkProof(
  deps: Deps,
  method: 'dns' | 'http',
  subject: ProofSubject,
  port?: number,
): Promise<ProofOutcome> {
  const signal = AbortSignal.timeout(PROOF_TIMEOUT_MS);
  try {
    if (method === 'dns') return await checkDnsProof(deps.txt, subject, signal);
    return await checkHttpProof(deps.crawl, subject, { allowPrivate: deps.config.crawl.allowPrivate, port }, signal);
  } catch (error) {
    if (signal.aborted) return { ok: false, reason: `no answer within ${PROOF_TIMEOUT_MS / 1000} s` };
    deps.log.warn('domain proof check failed', { method, domain: subject.domain, err: String(error) });
    return { ok: false, reason: 'the check could not be made; try again in a few minutes' };
  }
}

/** The proof row's token and the account's tokens of its other domains (to name a token put on the wrong domain). */
export async function proofSubject(
  deps: Deps,
  accountId: string,
  domain: string,
): Promise<ProofSubject & { id: string }> {
  const rows = await queryRows<{ id: string; domain: string; token: string }>(
    deps.db,
    sql`SELECT id, domain, token FROM domain_proofs WHERE account_id = ${accountId}`,
  );
  const own = rows.find((row) => row.domain === domain);
  if (!own) throw domainNotFound(domain);
  return {
    id: own.id,
    domain,
    token: own.token,
    otherTokens: new Map(rows.filter((r) => r !== own).map((r) => [r.token, r.domain])),
  };
}

/** `localPort`: a local `<name>.localhost` HTTP proof's port (checked above), kept for the monthly re-check. */
async function markVerified(
  deps: Deps,
  accountId: string,
  domain: string,
  method: ProofMethod,
  localPort?: number,
): Promise<DomainRecord> {
  const port = method === 'http' ? (localPort ?? null) : null;
  const expires = method === 'email' ? sql`now() + ${`${EMAIL_PROOF_DAYS} days`}::interval` : sql`NULL`;
  const [row] = await queryRows<DomainRow>(
    deps.db,
    sql`WITH v AS (UPDATE domain_proofs SET status = 'verified', method = ${method}, verified_at = now(), checked_at = now(),
          failing_since = NULL, expires_at = ${expires}, local_port = ${port}::integer
        WHERE account_id = ${accountId} AND domain = ${domain} RETURNING *)
        SELECT ${domainColumns} FROM v d`,
  );
  if (!row) throw domainNotFound(domain);
  return toDomainRecord(row, { allowLocalNames: deps.config.crawl.allowPrivate });
}

async function sendEmailCode(
  deps: Deps,
  actor: Actor,
  subject: ProofSubject & { id: string },
  typed: string,
): Promise<VerifyOutcome> {
  const email = proofAddress(typed, subject.domain);
  const code = newEmailCode();
  const hash = await hashEmailCode(deps.config, subject.id, email, code);
  const [row] = await queryRows<DomainRow>(
    deps.db,
    sql`WITH s AS (UPDATE domain_proofs SET email_address = ${email}, email_code_hash = ${hash},
          email_code_expires_at = now() + ${`${EMAIL_CODE_TTL_MINUTES} minutes`}::interval, email_code_tries = ${EMAIL_CODE_TRIES}
        WHERE id = ${subject.id} AND account_id = ${actor.accountId} RETURNING *)
        SELECT ${domainColumns} FROM s d`,
  );
  if (!row) throw domainNotFound(subject.domain);
  await deps.mail.send(emailCodeMessage(email, subject.domain, code, EMAIL_CODE_TTL_MINUTES));
  return { record: toDomainRecord(row, { allowLocalNames: deps.config.crawl.allowPrivate }), emailSent: true };
}

/**
 * One statement checks the code and spends a try under the row's lock: concurrent guesses cannot share a try, and
 * the right code verifies the domain and is gone (it works once).
 */
async function checkEmailCode(
  deps: Deps,
  actor: Actor,
  subject: ProofSubject & { id: string },
  typed: string,
): Promise<DomainRecord> {
  const [waiting] = await queryRows<{ email_address: string | null }>(
    deps.db,
    sql`SELECT email_address FROM domain_proofs WHERE id = ${subject.id}`,
  );
  const hash = await hashEmailCode(deps.config, subject.id, waiting?.email_address ?? '', typed);
  const expires = sql`now() + ${`${EMAIL_PROOF_DAYS} days`}::interval`;
  const [row] = await queryRows<DomainRow & { matched: boolean }>(
    deps.db,
    sql`WITH c AS (UPDATE domain_proofs SET
          status = CASE WHEN email_code_hash = ${hash} THEN 'verified' ELSE status END,
          method = CASE WHEN email_code_hash = ${hash} THEN 'email' ELSE method END,
          verified_at = CASE WHEN email_code_hash = ${hash} THEN now() ELSE verified_at END,
          expires_at = CASE WHEN email_code_hash = ${hash} THEN ${expires} ELSE expires_at END,
          failing_since = CASE WHEN email_code_hash = ${hash} THEN NULL ELSE failing_since END,
          email_code_tries = CASE WHEN email_code_hash = ${hash} THEN 0 ELSE email_code_tries - 1 END,
          email_code_hash = CASE WHEN email_code_hash = ${hash} THEN NULL ELSE email_code_hash END
        WHERE id = ${subject.id} AND account_id = ${actor.accountId}
          AND email_code_hash IS NOT NULL AND email_code_expires_at > now() AND email_code_tries > 0
        RETURNING *)
        SELECT ${domainColumns}, (d.email_code_hash IS NULL) AS matched FROM c d`,
  );
  if (!row) {
    throw new ServiceError(
      'verification_failed',
      `No e-mail code for ${subject.domain} is waiting (it expired, was used, or ran out of tries): ask for a new one.`,
    );
  }
  if (!row.matched) {
    const left = Number(row.email_code_tries);
    throw new ServiceError(
      'verification_failed',
      `Wrong code for ${subject.domain}: ${left === 0 ? 'no tries left, ask for a new code' : `${left} ${left === 1 ? 'try' : 'tries'} left`}.`,
    );
  }
  return toDomainRecord(row, { allowLocalNames: deps.config.crawl.allowPrivate });
}
