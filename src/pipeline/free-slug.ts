import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isUniqueViolation, queryRows } from '../db/client';
import { nextFreeSlug, slugify } from './slug';

// Which slug a site gets from its name (publish, an approved rename): the first of base, base-2, base-3, ... that no
// other tool ever held. site_slugs keeps every slug ever given (drizzle/*_withdrawal_and_slug_history.sql), so a
// renamed or withdrawn tool's old address is never handed to another tool.

/**
 * The slug `name` gives this site. A site whose current slug already belongs to the name's family (`base` or
 * `base-N`) keeps it, so a rename that changes only case or punctuation leaves the address alone; one of the
 * site's own old slugs may come back (a rename undone).
 */
export async function slugForName(db: Db, siteId: string, name: string): Promise<string> {
  const base = slugify(name);
  const rows = await queryRows<{ slug: string; own: boolean; current: boolean }>(
    db,
    sql`SELECT h.slug, h.site_id = ${siteId}::uuid AS own, h.slug = s.slug AS current
        FROM site_slugs h JOIN sites s ON s.id = h.site_id
        WHERE h.slug = ${base} OR h.slug ~ ${`^${base}-[0-9]+$`}`,
  );
  const current = rows.find((r) => r.own && r.current);
  if (current) return current.slug;
  return nextFreeSlug(
    base,
    rows.filter((r) => !r.own).map((r) => r.slug),
  );
}

/** A slug lost to a concurrent writer: sites.slug or the slug history refused it; the writer picks again. */
export function isSlugTaken(error: unknown): boolean {
  const violation = isUniqueViolation(error);
  return violation !== undefined && /slug/.test(violation.constraint ?? '');
}
