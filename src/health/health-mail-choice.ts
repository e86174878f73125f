// The owner's choice about health mails (docs/health.md "Mails and the opt-out"): turned off or on from the account
// page (by account) or from the link in each mail (by its token, RFC 8058 one-click). One statement each; repeating
// one changes nothing.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isUuid } from '../ids';

export interface HealthMailChoice {
  on: boolean;
}

/** Whether the health mails of the account behind an opt-out token are on; undefined for a token that is not ours. */
export async function healthMailsByToken(deps: Deps, token: string): Promise<HealthMailChoice | undefined> {
  if (!isUuid(token)) return undefined;
  const [row] = await queryRows<{ on: boolean }>(
    deps.db,
    sql`SELECT health_mails AS on FROM accounts WHERE health_mail_token = ${token}::uuid`,
  );
  return row ? { on: Boolean(row.on) } : undefined;
}

/** Turns the health mails off or on for the account whose opt-out link this is. Undefined: unknown token. */
export async function setHealthMailsByToken(
  deps: Deps,
  token: string,
  on: boolean,
): Promise<HealthMailChoice | undefined> {
  if (!isUuid(token)) return undefined;
  const [row] = await queryRows<{ on: boolean }>(
    deps.db,
    sql`UPDATE accounts SET health_mails = ${on} WHERE health_mail_token = ${token}::uuid RETURNING health_mails AS on`,
  );
  return row ? { on: Boolean(row.on) } : undefined;
}

/** The account's choice, for its account page. */
export async function healthMailsOf(deps: Deps, accountId: string): Promise<HealthMailChoice> {
  const [row] = await queryRows<{ on: boolean }>(
    deps.db,
    sql`SELECT health_mails AS on FROM accounts WHERE id = ${accountId}::uuid`,
  );
  return { on: row ? Boolean(row.on) : true };
}

/** Turns the account's health mails off or on (the account page's toggle). */
export async function setHealthMails(deps: Deps, accountId: string, on: boolean): Promise<HealthMailChoice> {
  await deps.db.execute(sql`UPDATE accounts SET health_mails = ${on} WHERE id = ${accountId}::uuid`);
  return { on };
}
