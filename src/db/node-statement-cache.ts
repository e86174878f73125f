// Node only (node-postgres). Every statement the app runs has a fixed text with $n parameters, so naming it
// by a hash of that text turns it into a prepared statement that each pooled connection parses and plans
// once: on a 2 vCPU box the submit context read drops from ~630 µs to ~80 µs of database time (see
// docs/bench.md). Neon's HTTP driver and PGlite are unaffected (they take no statement names).
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** A bound, not a cache size: the app has a few dozen statement texts; past this many, texts run unnamed. */
const MAX_NAMED_TEXTS = 1000;

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

/** Wraps `pool.query` so that every parameterised statement without a name gets one derived from its text. */
export function prepareStatementsByText(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameFor = (text: string): string | undefined => {
    const known = names.get(text);
    if (known || names.size >= MAX_NAMED_TEXTS) return known;
    const name = `td_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
    return name;
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((config: unknown, ...rest: unknown[]) => {
    const c = config as QueryConfig | null;
    // Only config objects with a text and no name: a plain string or a named/streamed query passes unchanged.
    if (c && typeof c === 'object' && typeof c.text === 'string' && c.name === undefined) {
      const name = nameFor(c.text);
      if (name) return query({ ...c, name }, ...rest);
    }
    return query(config, ...rest);
  }) as typeof pool.query;
}
