// Adding, reading and removing an account's domains (docs/ownership.md); proving one: verify-domain.ts.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { queryRows } from '../db/client';
import { randomToken } from '../crypto';
import { ServiceError } from '../errors';
import { domainColumns, toDomainRecord, type DomainRecord, type DomainRow } from './domain-record';
import { domainOf } from './domain-options';
import { MAX_DOMAINS_PER_ACCOUNT } from './proof-rules';

type Verb<I> = { deps: Deps; actor: Actor; input: I };

const recordOptions = (deps: Deps) => ({ allowLocalNames: deps.config.crawl.allowPrivate });

/**
 * Adds the registrable domain of `input.domain` to the account with a fresh token (201), or answers the one it
 * already holds (200, `created: false`): adding twice changes nothing. Several accounts may hold one domain.
 */
export async function addDomain({
  deps,
  actor,
  input,
}: Verb<{ domain: string }>): Promise<{ record: DomainRecord; created: boolean }> {
  const domain = await domainOf(deps, input.domain);
  const rows = await queryRows<DomainRow & { created: boolean }>(
    deps.db,
    sql`WITH added AS (
          INSERT INTO domain_proofs (id, account_id, domain, token)
          SELECT ${crypto.randomUUID()}::uuid, ${actor.accountId}::uuid, ${domain}, ${`td_${randomToken(24)}`}
          WHERE (SELECT count(*) FROM domain_proofs WHERE account_id = ${actor.accountId}) < ${MAX_DOMAINS_PER_ACCOUNT}
          ON CONFLICT (account_id, domain) DO NOTHING
          RETURNING *)
        SELECT ${domainColumns}, true AS created FROM added d
        UNION ALL
        SELECT ${domainColumns}, false AS created FROM domain_proofs d WHERE d.account_id = ${actor.accountId} AND d.domain = ${domain}`,
  );
  const row = rows.find((r) => r.created) ?? rows[0];
  if (!row)
    throw new ServiceError(
      'conflict',
      `An account holds at most ${MAX_DOMAINS_PER_ACCOUNT} domains; remove one first.`,
    );
  return { record: toDomainRecord(row, recordOptions(deps)), created: Boolean(row.created) };
}

/** The account's domains, verified first, then by name. */
export async function listDomains({ deps, actor }: Verb<unknown>): Promise<{ domains: DomainRecord[] }> {
  const rows = await queryRows<DomainRow>(
    deps.db,
    sql`SELECT ${domainColumns} FROM domain_proofs d WHERE d.account_id = ${actor.accountId} ORDER BY d.status = 'verified' DESC, d.domain`,
  );
  return { domains: rows.map((row) => toDomainRecord(row, recordOptions(deps))) };
}

/** One of the account's domains (any spelling of it), or 404. */
export async function getDomain({ deps, actor, input }: Verb<{ domain: string }>): Promise<DomainRecord> {
  const domain = await domainOf(deps, input.domain);
  const [row] = await queryRows<DomainRow>(
    deps.db,
    sql`SELECT ${domainColumns} FROM domain_proofs d WHERE d.account_id = ${actor.accountId} AND d.domain = ${domain}`,
  );
  if (!row) throw domainNotFound(domain);
  return toDomainRecord(row, recordOptions(deps));
}

/** Removes the domain and its proof from the account: its listings lose the mark at once. */
export async function removeDomain({ deps, actor, input }: Verb<{ domain: string }>): Promise<void> {
  const domain = await domainOf(deps, input.domain);
  const removed = await queryRows<{ id: string }>(
    deps.db,
    sql`DELETE FROM domain_proofs WHERE account_id = ${actor.accountId} AND domain = ${domain} RETURNING id`,
  );
  if (removed.length === 0) throw domainNotFound(domain);
}

export const domainNotFound = (domain: string) =>
  new ServiceError('not_found', `${domain} is not one of your domains (add it first).`);
