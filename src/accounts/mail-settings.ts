import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isUuid } from '../ids';

// An account's mail settings (docs/account.md "Mail"): whether status mails are sent, and the token of the
// one-click unsubscribe link those mails carry. Receipts, refunds and failed crawls ignore the setting.

export interface MailSettings {
  statusMail: boolean;
  /** The unsubscribe link's capability: random, able only to turn the account's status mails off or on. */
  token: string;
}

interface Row {
  token: string;
  off: boolean;
}

const toSettings = (row: Row): MailSettings => ({ statusMail: !row.off, token: row.token });

/** The account's settings, made on first use (one statement; a concurrent first use finds the same row). */
export async function readMailSettings(deps: Deps, accountId: string): Promise<MailSettings> {
  const [row] = await queryRows<Row>(
    deps.db,
    sql`INSERT INTO account_mail_settings (account_id) VALUES (${accountId}::uuid)
        ON CONFLICT (account_id) DO UPDATE SET account_id = EXCLUDED.account_id
        RETURNING unsubscribe_token::text AS token, status_mail_off_at IS NOT NULL AS off`,
  );
  return toSettings(row!);
}

/** Turns the account's status mails on or off (the /account/mail form). Repeating it changes nothing. */
export async function setStatusMail(deps: Deps, accountId: string, on: boolean): Promise<MailSettings> {
  const [row] = await queryRows<Row>(
    deps.db,
    sql`INSERT INTO account_mail_settings (account_id, status_mail_off_at) VALUES (${accountId}::uuid, ${on ? null : sql`now()`})
        ON CONFLICT (account_id) DO UPDATE
          SET status_mail_off_at = ${on ? sql`NULL` : sql`coalesce(account_mail_settings.status_mail_off_at, now())`}
        RETURNING unsubscribe_token::text AS token, status_mail_off_at IS NOT NULL AS off`,
  );
  return toSettings(row!);
}

/** The settings behind an unsubscribe token; undefined for a token that is not one of ours. */
export async function mailSettingsByToken(deps: Deps, token: string): Promise<MailSettings | undefined> {
  if (!isUuid(token)) return undefined;
  const [row] = await queryRows<Row>(
    deps.db,
    sql`SELECT unsubscribe_token::text AS token, status_mail_off_at IS NOT NULL AS off
        FROM account_mail_settings WHERE unsubscribe_token = ${token}::uuid`,
  );
  return row ? toSettings(row) : undefined;
}

/** The one-click unsubscribe (or its undo) by token: one statement; undefined for an unknown token. */
export async function setStatusMailByToken(deps: Deps, token: string, on: boolean): Promise<MailSettings | undefined> {
  if (!isUuid(token)) return undefined;
  const [row] = await queryRows<Row>(
    deps.db,
    sql`UPDATE account_mail_settings SET status_mail_off_at = ${on ? sql`NULL` : sql`coalesce(status_mail_off_at, now())`}
        WHERE unsubscribe_token = ${token}::uuid
        RETURNING unsubscribe_token::text AS token, status_mail_off_at IS NOT NULL AS off`,
  );
  return row ? toSettings(row) : undefined;
}
