import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isUniqueViolation, queryRows } from '../db/client';
import { normalizeName } from './name';
import { canonicalUrl, checkSubmittedUrl } from './url';
import { rewriteStoredUrls } from './backfill-urls';

/**
 * Recomputes the duplicate keys of stored rows (`canonical_url`, `normalized_name`, and the crawl's
 * `metadata.finalCanonical`) with the current rules of url.ts and name.ts, which SQL cannot run (the confusables
 * mapping). Rows that would now share a unique key are reported, never merged or deleted: the row that already
 * holds the key, else the oldest, gets it; the others keep their old key until an operator decides
 * (docs/deploy.md "Duplicate keys"). Each write is one conditional statement, so running it twice, or beside
 * live traffic, is harmless. Stored URLs are first brought to the parser's spelling (./backfill-urls.ts).
 */

export interface KeyCollision {
  table: 'sites' | 'pending_submissions';
  id: string;
  column: 'canonical_url' | 'normalized_name';
  /** The key the row would get under the current rules. */
  key: string;
  /** The row that holds that key (null if it could not be told, e.g. a concurrent submit took it). */
  heldBy: string | null;
}

export interface KeyBackfillReport {
  sites: number;
  pending: number;
  /** Keys written (one per row and column that changed). */
  updated: number;
  /** Stored URLs rewritten to the spelling a URL parser reads (`new URL(x).href`). */
  urlsRewritten: number;
  collisions: KeyCollision[];
  /** Rows whose stored URL no longer parses; their keys are left alone. */
  unparsable: Array<{ table: 'sites' | 'pending_submissions'; id: string }>;
}

/** A unique key column and how a row's key is scoped (pending records are unique per account). */
interface KeyColumn {
  table: 'sites' | 'pending_submissions';
  column: 'canonical_url' | 'normalized_name';
  unique: boolean;
}

interface KeyRow {
  id: string;
  /** The uniqueness scope: '' for sites, the account for pending records. */
  scope: string;
  old: string;
  next: string;
}

interface SiteRow {
  id: string;
  url: string;
  name: string;
  canonical_url: string;
  normalized_name: string;
  final_url: string | null;
  final_canonical: string | null;
}

interface PendingRow {
  id: string;
  account_id: string;
  url: string;
  name: string;
  canonical_url: string;
  normalized_name: string;
}

export async function backfillDuplicateKeys(db: Db): Promise<KeyBackfillReport> {
  // Oldest first: where two rows now want one key and neither holds it yet, the first submitted keeps it.
  const sites = await queryRows<SiteRow>(
    db,
    sql`SELECT id, url, name, canonical_url, normalized_name,
          metadata->>'finalUrl' AS final_url, metadata->>'finalCanonical' AS final_canonical
        FROM sites ORDER BY submitted_at, id`,
  );
  const pending = await queryRows<PendingRow>(
    db,
    sql`SELECT id, account_id, url, name, canonical_url, normalized_name FROM pending_submissions ORDER BY submitted_at, id`,
  );
  const urlsRewritten =
    (await rewriteStoredUrls(db, 'sites', sites)) + (await rewriteStoredUrls(db, 'pending_submissions', pending));
  const report: KeyBackfillReport = {
    sites: sites.length,
    pending: pending.length,
    updated: 0,
    urlsRewritten,
    collisions: [],
    unparsable: [],
  };

  const siteUrls: KeyRow[] = [];
  for (const row of sites) {
    const next = urlKey(row.url);
    if (next === null) report.unparsable.push({ table: 'sites', id: row.id });
    siteUrls.push({ id: row.id, scope: '', old: row.canonical_url, next: next ?? row.canonical_url });
  }
  const pendingUrls: KeyRow[] = [];
  for (const row of pending) {
    const next = urlKey(row.url);
    if (next === null) report.unparsable.push({ table: 'pending_submissions', id: row.id });
    pendingUrls.push({ id: row.id, scope: row.account_id, old: row.canonical_url, next: next ?? row.canonical_url });
  }
  const names = <R extends SiteRow | PendingRow>(rows: R[], scope: (row: R) => string): KeyRow[] =>
    rows.map((row) => ({ id: row.id, scope: scope(row), old: row.normalized_name, next: normalizeName(row.name) }));

  await assignKeys(db, { table: 'sites', column: 'canonical_url', unique: true }, siteUrls, report);
  await assignKeys(
    db,
    { table: 'sites', column: 'normalized_name', unique: true },
    names(sites, () => ''),
    report,
  );
  await assignKeys(db, { table: 'pending_submissions', column: 'canonical_url', unique: true }, pendingUrls, report);
  await assignKeys(
    db,
    { table: 'pending_submissions', column: 'normalized_name', unique: false },
    names(pending, (row) => row.account_id),
    report,
  );
  for (const row of sites) {
    const next = row.final_url === null ? null : urlKey(row.final_url);
    if (next === null || next === row.final_canonical) continue;
    const updated = await queryRows<{ id: string }>(
      db,
      sql`UPDATE sites SET metadata = jsonb_set(metadata, '{finalCanonical}', to_jsonb(${next}::text))
          WHERE id = ${row.id}::uuid AND metadata->>'finalCanonical' IS NOT DISTINCT FROM ${row.final_canonical}::text
          RETURNING id`,
    );
    report.updated += updated.length;
  }
  return report;
}

/** The current canonical form of a stored URL, or null when it no longer parses at all. */
function urlKey(url: string): string | null {
  const checked = checkSubmittedUrl(url);
  if (checked.ok) return canonicalUrl(checked.url);
  try {
    return canonicalUrl(new URL(url.trim())); // accepted under an older, looser check: still compare it
  } catch {
    return null;
  }
}

/**
 * Decides who gets each key (the row holding it, else the first), then writes the winners. A winner can be
 * blocked by a row that is itself about to move off that key, so the writes repeat while any of them lands.
 */
async function assignKeys(db: Db, target: KeyColumn, rows: KeyRow[], report: KeyBackfillReport): Promise<void> {
  const owner = new Map<string, string>();
  if (target.unique) {
    for (const row of rows) if (row.old === row.next) owner.set(`${row.scope}\u0000${row.next}`, row.id);
  }
  let todo: KeyRow[] = [];
  for (const row of rows) {
    if (row.old === row.next) continue;
    const slot = `${row.scope}\u0000${row.next}`;
    const held = target.unique ? owner.get(slot) : undefined;
    if (held !== undefined) {
      report.collisions.push({ table: target.table, id: row.id, column: target.column, key: row.next, heldBy: held });
      continue;
    }
    if (target.unique) owner.set(slot, row.id);
    todo.push(row);
  }
  while (todo.length > 0) {
    const blocked: KeyRow[] = [];
    for (const row of todo) {
      const outcome = await writeKey(db, target, row);
      if (outcome === 'written') report.updated += 1;
      if (outcome === 'blocked') blocked.push(row);
    }
    if (blocked.length === todo.length) {
      for (const row of blocked) {
        const heldBy = await holderOf(db, target, row);
        report.collisions.push({ table: target.table, id: row.id, column: target.column, key: row.next, heldBy });
      }
      return;
    }
    todo = blocked;
  }
}

/** One conditional write: only over the key this run read, and only while no other row holds the new one. */
async function writeKey(db: Db, target: KeyColumn, row: KeyRow): Promise<'written' | 'blocked' | 'moved'> {
  const table = sql.identifier(target.table);
  const column = sql.identifier(target.column);
  const free = target.unique
    ? sql`AND NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.${column} = ${row.next} ${scoped(target, row)})`
    : sql``;
  try {
    const written = await queryRows<{ id: string }>(
      db,
      sql`UPDATE ${table} SET ${column} = ${row.next} WHERE id = ${row.id}::uuid AND ${column} = ${row.old} ${free} RETURNING id`,
    );
    if (written.length > 0) return 'written';
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // Not written: either another row holds the key, or this row changed (or went) since it was read, in which
  // case whatever changed it wrote a key by the current rules.
  const [current] = await queryRows<{ key: string }>(
    db,
    sql`SELECT ${column} AS key FROM ${table} WHERE id = ${row.id}::uuid`,
  );
  return current?.key === row.old ? 'blocked' : 'moved';
}

async function holderOf(db: Db, target: KeyColumn, row: KeyRow): Promise<string | null> {
  const table = sql.identifier(target.table);
  const column = sql.identifier(target.column);
  const [holder] = await queryRows<{ id: string }>(
    db,
    sql`SELECT o.id FROM ${table} o WHERE o.${column} = ${row.next} ${scoped(target, row)} LIMIT 1`,
  );
  return holder?.id ?? null;
}

function scoped(target: KeyColumn, row: KeyRow): SQL {
  return target.table === 'pending_submissions' ? sql`AND o.account_id = ${row.scope}::uuid` : sql``;
}
