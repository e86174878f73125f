import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { foldStoredAccountEmails, type EmailCollision } from '../accounts/backfill-emails';
import { clearInvisibleClientNames } from '../oauth/backfill-client-names';
import { backfillDuplicateKeys, type KeyBackfillReport, type KeyCollision } from './backfill-keys';

/**
 * What one run brought to the current rules: the duplicate keys and stored URLs of submissions (./backfill-keys.ts),
 * account addresses (their domain as mail reads it) and OAuth client names that show nothing. All of them are rules
 * SQL cannot compute, so a migration that changes one asks for this run instead of rewriting rows itself.
 */
export interface StoredValuesReport extends Omit<KeyBackfillReport, 'collisions'> {
  collisions: Array<KeyCollision | EmailCollision>;
  /** Account addresses rewritten to their folded form. */
  emailsFolded: number;
  /** OAuth client names cleared because nothing of them is visible. */
  clientNamesCleared: number;
}

/** Every pass, in order; each is safe to repeat and beside live traffic. */
async function recomputeStoredValues(db: Db): Promise<StoredValuesReport> {
  const keys = await backfillDuplicateKeys(db);
  const emails = await foldStoredAccountEmails(db);
  const clientNamesCleared = await clearInvisibleClientNames(db);
  return {
    ...keys,
    collisions: [...keys.collisions, ...emails.collisions],
    emailsFolded: emails.folded,
    clientNamesCleared,
  };
}

/**
 * Runs the backfill when a migration asked for one (a row of duplicate_key_backfills without `done_at`),
 * or always with `force`, and stamps the requests done with the report, so `SELECT * FROM
 * duplicate_key_backfills` shows later what happened. Returns undefined when nothing was asked.
 */
export async function runRequestedKeyBackfill(
  db: Db,
  options: { force?: boolean } = {},
): Promise<(StoredValuesReport & { rules: string[] }) | undefined> {
  if (options.force) {
    await queryRows(
      db,
      sql`INSERT INTO duplicate_key_backfills (rules) VALUES (${`manual ${new Date().toISOString()}`})
      ON CONFLICT (rules) DO NOTHING`,
    );
  }
  const requests = await queryRows<{ rules: string }>(
    db,
    sql`SELECT rules FROM duplicate_key_backfills WHERE done_at IS NULL ORDER BY requested_at`,
  );
  if (requests.length === 0) return undefined;
  const report = await recomputeStoredValues(db);
  const rules = requests.map((r) => r.rules);
  await queryRows(
    db,
    sql`UPDATE duplicate_key_backfills SET done_at = now(), report = ${JSON.stringify(report)}::jsonb
        WHERE done_at IS NULL AND rules IN (${sql.join(
          rules.map((r) => sql`${r}`),
          sql`, `,
        )})`,
  );
  return { ...report, rules };
}

/**
 * A database as the Node entry, the test template and `npm run db:migrate` open it: migrated (src/db/node-clients.ts),
 * then the duplicate-key backfill a migration asked for, before the first request (docs/deploy.md "Duplicate keys").
 * It lives here, above src/db/, because recomputing keys needs the submission rules.
 */
export async function withRequestedKeyBackfill<T extends { db: Db }>(
  opened: T,
): Promise<T & { keyBackfill?: StoredValuesReport & { rules: string[] } }> {
  const keyBackfill = await runRequestedKeyBackfill(opened.db);
  return { ...opened, keyBackfill };
}

/** The report in lines an operator reads: counts, then one line per row that needs a decision. */
export function describeKeyBackfill(report: StoredValuesReport): string[] {
  const lines = [
    `duplicate keys recomputed: ${report.updated} key(s) changed across ${report.sites} site(s) and ${report.pending} pending record(s)`,
    `stored URLs rewritten to their parsed form: ${report.urlsRewritten}; account addresses folded: ${report.emailsFolded}; ` +
      `blank OAuth client names cleared: ${report.clientNamesCleared}`,
  ];
  for (const c of report.collisions) {
    lines.push(
      `  collision: ${c.table} ${c.id} ${c.column} would be ${JSON.stringify(c.key)}, held by ${c.heldBy ?? 'another row'}; it keeps its old key`,
    );
  }
  for (const u of report.unparsable) lines.push(`  unparsable URL: ${u.table} ${u.id}; its keys are left alone`);
  return lines;
}
