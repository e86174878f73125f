// The monthly re-check of DNS and HTTP proofs (docs/ownership.md "Re-checks"), run by the scheduled sweep: a proof
// that no longer holds is mailed about at once and lapses 14 days after its first failure unless it is back; an
// e-mail proof is not re-checked and lapses a year after it was made. Times come from deps.now() (tests move it).
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { checkNetworkProof, proofSubject } from './verify-domain';
import { proofFailingMail, proofLapsedMail } from './recheck-mail';
import { FAILING_RECHECK_EVERY_HOURS, RECHECK_EVERY_DAYS, RECHECK_GRACE_DAYS } from './proof-rules';
import type { MailMessage } from '../adapters/mail/types';

/** Proofs re-checked per sweep run: each check may take up to 10 s, and a sweep runs every 5 minutes. */
export const RECHECK_BATCH = 10;

export interface RecheckReport {
  /** DNS and HTTP proofs checked this run. */
  rechecked: number;
  /** Proofs that lapsed (a failing one past its grace, an e-mail proof past its year). */
  lapsed: number;
}

const DAY_MS = 86_400_000;
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

interface DueProof {
  id: string;
  account_id: string;
  domain: string;
  method: 'dns' | 'http';
  checked_at: string | null;
  failing_since: string | null;
  email: string;
  local_port: number | null;
}

export async function recheckDomainProofs(deps: Deps, options: { batch?: number } = {}): Promise<RecheckReport> {
  const now = deps.now();
  const expired = await lapseExpiredEmailProofs(deps, now);
  const monthAgo = new Date(now.getTime() - RECHECK_EVERY_DAYS * DAY_MS);
  const dayAgo = new Date(now.getTime() - FAILING_RECHECK_EVERY_HOURS * 3_600_000);
  // A local <name>.localhost proof is re-checked in local mode only (on the port its verify call gave, kept with it):
  // elsewhere such a name never reaches the machine that served the file.
  const localNames = deps.config.crawl.allowPrivate;
  const due = await queryRows<DueProof>(
    deps.db,
    sql`SELECT d.id, d.account_id, d.domain, d.method, d.checked_at::text AS checked_at, d.failing_since::text AS failing_since, a.email, d.local_port
        FROM domain_proofs d JOIN accounts a ON a.id = d.account_id
        WHERE d.status = 'verified' AND d.method IN ('dns', 'http') AND (${localNames} OR d.domain NOT LIKE '%.localhost')
          AND (d.checked_at IS NULL OR d.checked_at <= ${at(monthAgo)} OR (d.failing_since IS NOT NULL AND d.checked_at <= ${at(dayAgo)}))
        ORDER BY d.checked_at NULLS FIRST LIMIT ${options.batch ?? RECHECK_BATCH}`,
  );
  const outcomes = await Promise.all(
    due.map((proof) =>
      recheckOne(deps, proof, now).catch((error: unknown) => {
        // A domain removed meanwhile, a database hiccup: the next sweep tries again; the others go on.
        deps.log.warn('domain proof re-check failed', { domain: proof.domain, err: String(error) });
        return 'raced' as const;
      }),
    ),
  );
  const report = { rechecked: due.length, lapsed: expired + outcomes.filter((o) => o === 'lapsed').length };
  if (report.rechecked > 0 || report.lapsed > 0) deps.log.info('domain proofs re-checked', { ...report });
  return report;
}

/**
 * One proof: passing clears its failure; a first failure starts the grace (mailed); a failure past the grace lapses
 * it (mailed). Each write is conditioned on the checked_at it read, so two overlapping sweeps act (and mail) once.
 */
async function recheckOne(deps: Deps, proof: DueProof, now: Date): Promise<'passed' | 'failing' | 'lapsed' | 'raced'> {
  const subject = await proofSubject(deps, proof.account_id, proof.domain);
  const outcome = await checkNetworkProof(deps, proof.method, subject, proof.local_port ?? undefined);
  const unchanged = sql`id = ${proof.id}::uuid AND status = 'verified' AND checked_at IS NOT DISTINCT FROM ${proof.checked_at}::timestamptz`;
  if (outcome.ok) {
    const done = await queryRows(
      deps.db,
      sql`UPDATE domain_proofs SET checked_at = ${at(now)}, failing_since = NULL WHERE ${unchanged} RETURNING id`,
    );
    return done.length > 0 ? 'passed' : 'raced';
  }
  const failingSince = proof.failing_since ? new Date(proof.failing_since) : now;
  const lapsesAt = new Date(failingSince.getTime() + RECHECK_GRACE_DAYS * DAY_MS);
  if (proof.failing_since && lapsesAt <= now) {
    const done = await queryRows(
      deps.db,
      sql`UPDATE domain_proofs SET status = 'pending', method = NULL, verified_at = NULL, failing_since = NULL, checked_at = ${at(now)}
          WHERE ${unchanged} RETURNING id`,
    );
    if (done.length === 0) return 'raced';
    await mail(
      deps,
      proofLapsedMail(proof.email, proof.domain, `it kept failing for ${RECHECK_GRACE_DAYS} days: ${outcome.reason}`),
    );
    return 'lapsed';
  }
  const done = await queryRows(
    deps.db,
    sql`UPDATE domain_proofs SET checked_at = ${at(now)}, failing_since = ${at(failingSince)} WHERE ${unchanged} RETURNING id`,
  );
  if (done.length === 0) return 'raced';
  if (!proof.failing_since)
    await mail(deps, proofFailingMail(proof.email, proof.domain, proof.method, outcome.reason, lapsesAt.toISOString()));
  return 'failing';
}

/** E-mail proofs past their year go back to pending (the mark already ignores them; the record then says so too). */
async function lapseExpiredEmailProofs(deps: Deps, now: Date): Promise<number> {
  const rows = await queryRows<{ domain: string; email: string }>(
    deps.db,
    sql`WITH lapsed AS (UPDATE domain_proofs SET status = 'pending', method = NULL, verified_at = NULL, expires_at = NULL
          WHERE status = 'verified' AND method = 'email' AND expires_at <= ${at(now)} RETURNING account_id, domain)
        SELECT l.domain, a.email FROM lapsed l JOIN accounts a ON a.id = l.account_id`,
  );
  for (const row of rows) await mail(deps, proofLapsedMail(row.email, row.domain, 'an e-mail proof lasts a year'));
  return rows.length;
}

async function mail(deps: Deps, message: MailMessage): Promise<void> {
  try {
    await deps.mail.send(message);
  } catch (error) {
    deps.log.warn('domain proof mail not sent', { to: message.to, err: String(error) });
  }
}
