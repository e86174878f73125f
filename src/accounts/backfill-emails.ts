import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { normalizeEmail } from './sign-in';

// Until issue 27 an account's address was only trimmed and lower-cased, so `ada@bücher.example` or
// `ada@example.com.` were stored as typed. Sign-in now reads the domain as mail does (./mail-domain.ts), so those
// owners would land in a new, empty account: this gives stored addresses the same form. It runs as code with the
// requested key backfill (src/submissions/requested-key-backfill.ts), since SQL cannot apply UTS #46.

export interface EmailCollision {
  table: 'accounts';
  id: string;
  column: 'email';
  /** The address the account would get under the current rule. */
  key: string;
  /** The account that holds that address (null if it could not be told). */
  heldBy: string | null;
}

export interface EmailBackfillReport {
  /** Addresses rewritten to their folded form. */
  folded: number;
  /** Two accounts of one mailbox: reported, never merged; the later one keeps its old address. */
  collisions: EmailCollision[];
}

/**
 * Rewrites every stored address whose folded form differs. One conditional statement per changed account (only over
 * the address read, only while no account holds the new one), so it is safe twice and beside live sign-ins. An
 * address that no longer passes (an empty label) is left as it is: its owner still signs in with a fixed spelling
 * once an operator corrects it.
 */
export async function foldStoredAccountEmails(db: Db): Promise<EmailBackfillReport> {
  // Only an address with a non-ASCII character or a trailing dot can fold differently: addresses were lower-cased already.
  const rows = await queryRows<{ id: string; email: string }>(
    db,
    sql`SELECT id, email FROM accounts WHERE octet_length(email) <> char_length(email) OR email LIKE '%.' ORDER BY created_at, id`,
  );
  const report: EmailBackfillReport = { folded: 0, collisions: [] };
  for (const row of rows) {
    const next = normalizeEmail(row.email);
    if (next === undefined || next === row.email) continue;
    const written = await queryRows<{ id: string }>(
      db,
      sql`UPDATE accounts SET email = ${next} WHERE id = ${row.id}::uuid AND email = ${row.email}
            AND NOT EXISTS (SELECT 1 FROM accounts o WHERE o.email = ${next})
          RETURNING id`,
    );
    if (written.length > 0) {
      report.folded += 1;
      continue;
    }
    const [holder] = await queryRows<{ id: string }>(db, sql`SELECT id FROM accounts WHERE email = ${next}`);
    if (holder && holder.id !== row.id)
      report.collisions.push({ table: 'accounts', id: row.id, column: 'email', key: next, heldBy: holder.id });
  }
  return report;
}
