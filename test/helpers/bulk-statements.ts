// The bulk writes issue 27 names, as one statement each over every live tool of a database: what a re-check job
// or a migration does. The growth bench (test/bench/bulk-writes.ts) times them at growing sizes and the trigger
// plan test (test/functions/trigger-plans.test.ts) reads the plans their triggers run. A round of them leaves
// the tools as it found them (live, in their categories), so rounds can repeat on one database.

/** A category no seeded tool has, added to every live tool and removed again. */
export const BULK_CATEGORY = 'bulk-added';

export interface BulkStatement {
  name: string;
  sql: string;
}

/** `INSERT`s the category the statements add (run once per database). */
export const bulkCategorySql = `INSERT INTO categories (slug, name) VALUES ('${BULK_CATEGORY}', 'Added in bulk') ON CONFLICT (slug) DO NOTHING`;

/** Round `round` (an integer) of the statements, in the order they must run. */
export function bulkStatements(round: number): BulkStatement[] {
  const marker = Math.trunc(round);
  return [
    { name: 'update every live tool, changing nothing', sql: `UPDATE sites SET name = name WHERE status = 'live'` },
    {
      name: 'update every live tool, changing a public field',
      sql: `UPDATE sites SET metadata = metadata || jsonb_build_object('image', 'https://img.example/' || id || '/${marker}.png') WHERE status = 'live'`,
    },
    {
      name: 'add a category to every live tool (one INSERT)',
      sql: `INSERT INTO site_categories (site_id, category_slug) SELECT id, '${BULK_CATEGORY}' FROM sites WHERE status = 'live'`,
    },
    {
      name: 'remove that category again (one DELETE)',
      sql: `DELETE FROM site_categories WHERE category_slug = '${BULK_CATEGORY}'`,
    },
    {
      name: 'take every live tool down (status flip)',
      sql: `UPDATE sites SET status = 'pending_review', status_note = 'bulk ${marker}' WHERE status = 'live'`,
    },
    {
      name: 'put them live again (status flip)',
      sql: `UPDATE sites SET status = 'live', status_note = NULL WHERE status = 'pending_review' AND status_note = 'bulk ${marker}'`,
    },
  ];
}
