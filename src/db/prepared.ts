import { sql, type Placeholder, type Query, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

// Statements rendered to SQL text once per process and run many times with new values. drizzle renders an `sql`
// tree on every db.execute(): for the detail read of a submission (its history and queue position) that walk
// cost ~80 µs of CPU per request, a fifth of the request (docs/bench.md "Reads against the bare floor"). A hot
// read's statement has a fixed shape, so it is built once with placeholders and only its values change. The same
// text each time also keeps node-postgres's prepared-statement lookup cheap (src/db/node-statement-cache.ts).

const dialect = new PgDialect();

/** A statement of fixed shape; `rows` fills its placeholders and runs it on any driver (PGlite, node-postgres, Neon). */
export interface PreparedStatement<K extends string> {
  rows<T>(db: Db, values: Record<K, unknown>): Promise<T[]>;
}

/**
 * Builds the statement once (on first use, not at module load) with a placeholder for each value.
 * A value is passed as one parameter, whatever its type: a JS array becomes one PostgreSQL array, never a list.
 * @example
 * const byId = preparedStatement<'id'>((p) => sql`SELECT name FROM sites WHERE id = ${p('id')}`);
 * const [row] = await byId.rows<{ name: string }>(deps.db, { id });
 */
export function preparedStatement<K extends string>(
  build: (p: (name: K) => Placeholder<K>) => SQL,
): PreparedStatement<K> {
  let query: Query | undefined;
  return {
    async rows<T>(db: Db, values: Record<K, unknown>): Promise<T[]> {
      query ??= dialect.sqlToQuery(build((name) => sql.placeholder(name)));
      const result = (await db._.session.prepareQuery(query, undefined, undefined, false).execute(values)) as
        | { rows?: T[] }
        | T[];
      return Array.isArray(result) ? result : (result.rows ?? []);
    },
  };
}
