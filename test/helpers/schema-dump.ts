// What a database is, read off its catalog: every table, column, constraint, index, function, trigger, view,
// sequence, type, extension, comment and policy outside the system schemas, plus the rows in its tables. Two
// databases with equal dumps have the same schema and the same reference data (test/unit/db/baseline.test.ts
// compares the squashed baseline with every migration applied one by one).

/** Runs one statement and answers its rows. */
export type Rows = (text: string) => Promise<Record<string, unknown>[]>;

const OURS = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp%'`;

/** Catalog queries, each ordered so that equal databases give equal text. */
const QUERIES: Record<string, string> = {
  // Column order, not attnum: a dropped column leaves a gap in attnum that a fresh CREATE TABLE does not.
  columns: `SELECT n.nspname, c.relname, c.relkind, c.relpersistence, c.relrowsecurity, c.reloptions::text,
      row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum) AS position, a.attname, format_type(a.atttypid, a.atttypmod) AS type,
      a.attnotnull, a.attidentity, a.attgenerated, pg_get_expr(d.adbin, d.adrelid) AS default_expr, co.collname, a.attstattarget
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0 AND co.collname <> 'default'
    WHERE ${OURS} AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'c')
    ORDER BY 1, 2, 7`,
  constraints: `SELECT n.nspname, c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid, true) AS def, k.condeferrable, k.condeferred
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE ${OURS} ORDER BY 1, 2, 3`,
  indexes: `SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
    WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`,
  functions: `SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) AS args, pg_get_functiondef(p.oid) AS def
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    LEFT JOIN pg_depend dep ON dep.objid = p.oid AND dep.deptype = 'e'
    WHERE ${OURS} AND dep.objid IS NULL AND p.prokind IN ('f', 'p') ORDER BY 1, 2, 3`,
  triggers: `SELECT c.relname, t.tgname, pg_get_triggerdef(t.oid, true) AS def, t.tgenabled
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE ${OURS} AND NOT t.tgisinternal ORDER BY 1, 2`,
  views: `SELECT schemaname, viewname, definition FROM pg_views WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT schemaname, matviewname, definition FROM pg_matviews ORDER BY 1, 2`,
  sequences: `SELECT schemaname, sequencename, data_type::text, start_value, min_value, max_value, increment_by, cycle, last_value
    FROM pg_sequences ORDER BY 1, 2`,
  types: `SELECT n.nspname, t.typname, t.typtype,
      (SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = t.oid) AS labels
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    LEFT JOIN pg_depend dep ON dep.objid = t.oid AND dep.deptype = 'e'
    WHERE ${OURS} AND t.typtype IN ('c', 'e', 'd', 'r') AND dep.objid IS NULL
      AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind <> 'c')
    ORDER BY 1, 2`,
  extensions: `SELECT e.extname, e.extversion, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace ORDER BY 1`,
  schemas: `SELECT n.nspname FROM pg_namespace n WHERE ${OURS} ORDER BY 1`,
  comments: `SELECT pg_describe_object(d.classoid, d.objoid, d.objsubid) AS object, d.description FROM pg_description d
    WHERE d.classoid IN ('pg_class'::regclass, 'pg_proc'::regclass, 'pg_type'::regclass, 'pg_constraint'::regclass, 'pg_trigger'::regclass)
      AND EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = d.objoid AND ${OURS}
        UNION ALL SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.oid = d.objoid AND ${OURS}
          AND NOT EXISTS (SELECT 1 FROM pg_depend dep WHERE dep.objid = p.oid AND dep.deptype = 'e'))
    ORDER BY 1`,
  policies: `SELECT schemaname, tablename, policyname, permissive, roles::text, cmd, qual, with_check FROM pg_policies ORDER BY 1, 2, 3`,
};

/** The catalog, one entry per kind of object. */
export async function schemaDump(rows: Rows): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const [kind, text] of Object.entries(QUERIES)) dump[kind] = await rows(text);
  return dump;
}

/**
 * Every row of every table outside the system schemas, as JSON text sorted per table, with the values that a
 * migration draws at random or from the clock (uuid and timestamp columns) left out: the rows a migration
 * seeds must be equal, not the moment they were made.
 */
export async function dataDump(rows: Rows, exceptTables: readonly string[] = []): Promise<Record<string, string[]>> {
  const tables = await rows(`SELECT format('%I.%I', n.nspname, c.relname) AS name,
      coalesce((SELECT array_agg(quote_literal(a.attname)) FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
          AND a.atttypid IN ('uuid'::regtype, 'timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype)), '{}') AS drop
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${OURS} AND c.relkind IN ('r', 'p') ORDER BY 1`);
  const data: Record<string, string[]> = {};
  for (const table of tables) {
    const name = String(table.name);
    if (exceptTables.includes(name)) continue;
    const drop = (table.drop as string[]).map((quoted) => ` - ${quoted}::text`).join('');
    const found = await rows(`SELECT (to_jsonb(t)${drop})::text AS row FROM ${name} t ORDER BY 1`);
    data[name] = found.map((r) => String(r.row));
  }
  return data;
}
