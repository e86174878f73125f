import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isUuid } from '../ids';

/** Whether the weekly e-mail behind an opt-out token is on; undefined for a token that is not one of ours. */
export async function reportMailState(deps: Deps, token: string): Promise<{ optedOut: boolean } | undefined> {
  if (!isUuid(token)) return undefined;
  const [row] = await queryRows<{ opted_out: boolean }>(
    deps.db,
    sql`SELECT opted_out_at IS NOT NULL AS opted_out FROM stats_report_mail WHERE opt_out_token = ${token}::uuid`,
  );
  return row ? { optedOut: Boolean(row.opted_out) } : undefined;
}

/**
 * Turns the weekly statistics e-mail off (or on again) for the account whose opt-out link this is (a core
 * verb; docs/stats.md "Weekly e-mail"). One statement; repeating it changes nothing. Undefined: unknown token.
 */
export async function setReportMail(
  deps: Deps,
  token: string,
  on: boolean,
): Promise<{ optedOut: boolean } | undefined> {
  if (!isUuid(token)) return undefined;
  const [row] = await queryRows<{ opted_out: boolean }>(
    deps.db,
    sql`UPDATE stats_report_mail SET opted_out_at = ${on ? sql`NULL` : sql`coalesce(opted_out_at, now())`}
      WHERE opt_out_token = ${token}::uuid RETURNING opted_out_at IS NOT NULL AS opted_out`,
  );
  return row ? { optedOut: Boolean(row.opted_out) } : undefined;
}
