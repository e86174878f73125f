import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import type { StatementBatcher } from '../db/statement-batching';
import { MAX_SEARCHES_PER_STATEMENT, type RankedPageCall } from './search-plan';
import { rankedPagesStatement } from './search-statements';

// Where a search's ranked page is read (./search.ts). A page is one call of search_results; under load the Node
// server reads several pages in one statement (docs/bench.md "Several searches in one statement"): a search that
// arrives while every slot is busy waits for the next free one with the others that arrived meanwhile, and they
// share one statement and one transaction. Each still gets the page it would get alone, from the same function.

/** The process's batcher of ranked pages (deps.batching): each answer is a packed page (`rows`, maybe JSON text). */
export function rankedPages(deps: Deps): StatementBatcher<RankedPageCall, unknown> {
  const { db } = deps;
  return deps.batching.batcher<RankedPageCall, unknown>(
    'ranked search pages',
    async (calls) => {
      const rows = await queryRows<{ n: number; rows: unknown }>(db, rankedPagesStatement(calls));
      if (rows.length !== calls.length) throw new Error(`${calls.length} searches got ${rows.length} pages`);
      // One row per call (its index `n`), in whatever order the statement gave them.
      const pages: unknown[] = new Array(calls.length);
      for (const row of rows) pages[row.n] = row.rows;
      return pages;
    },
    { maxBatch: MAX_SEARCHES_PER_STATEMENT },
  );
}
