// Bulk writes stay linear (issue 27; drizzle/0033_bulk_writes_linear.sql): every statement a trigger runs reads each
// transition table once per statement, never again for each row of another set. Not a timing: the plans the
// triggers actually ran (auto_explain, nested statements, actual loops) while the bulk statements of
// test/helpers/bulk-statements.ts change a few hundred live tools of the search corpus, as the planner chooses and
// with nested loops wherever a query's shape allows one (what the planner chose past ~4,500 rows). The triggers of
// drizzle/0029 fail it: their EXISTS over old_rows joined to new_rows rescanned old_rows for every new row when no
// row had changed. The growth itself is measured by `npm run bench -- bulk`.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { auto_explain } from '@electric-sql/pglite/contrib/auto_explain';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { openNodePostgres, type OpenedDb } from '../../src/db/node-clients';
import * as schema from '../../src/db/schema';
import { bulkCategorySql, bulkStatements } from '../helpers/bulk-statements';
import { loadSearchCorpus } from '../helpers/search-corpus-load';
import { findPostgresBinaries, startPostgres, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import {
  autoExplainToClient,
  nestedLoopsWherePossible,
  parseAutoExplain,
  plannerDefaults,
  readsTransitionTable,
  wholeSetScansInLoops,
  type ExplainedStatement,
} from '../helpers/trigger-plans';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);
const TOOLS = 300;

/** Runs one statement and returns the plans of every statement it ran, its triggers' included. */
type Explain = (statement: string) => Promise<ExplainedStatement[]>;

function triggerPlanSuite(setUp: () => Promise<{ db: Db; explain: Explain; close(): Promise<void> }>) {
  let env: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    env = await setUp();
    await loadSearchCorpus(env.db, { tools: TOOLS, seed: 27 });
    await env.explain(bulkCategorySql);
  }, 120_000);
  afterAll(() => env?.close());

  // A round each, so every statement changes in the second what it changed in the first.
  for (const [round, planner, settings] of [
    [1, 'as planned', plannerDefaults],
    [2, 'with nested loops wherever possible', nestedLoopsWherePossible],
  ] as const) {
    it.each(bulkStatements(round).map((s) => [s.name, s.sql]))(
      `%s, ${planner}: no transition table is read inside a loop`,
      async (_name, statement) => {
        for (const setting of settings) await env.explain(setting);
        const plans = await env.explain(statement);
        // The triggers ran and were seen (a test that saw no plan would pass whatever they did).
        expect(plans.filter((p) => readsTransitionTable(p.query)).length).toBeGreaterThan(0);
        const looped = plans.flatMap((p) =>
          wholeSetScansInLoops(p.plan).map((where) => `${where}, in: ${p.query.trim().split('\n')[0]}`),
        );
        expect(looped).toEqual([]);
      },
    );
  }

  it('the rule catches the delete that was quadratic (drizzle/0034: emptied words found by recomputing the change set)', async () => {
    // The shape search_counts_apply had before 0045: `word IN (<every word of the change set>)` driven by a filter the
    // statistics misjudge (the counts it tests were just brought to zero), so the change set's words were recomputed
    // for every vocabulary row the filter let through. Run in a transaction rolled back: the probe zeroes the counts.
    await env.explain('BEGIN');
    await env.explain(`CREATE FUNCTION pg_temp.emptied_probe() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE changes search_count_change[] := ARRAY(
        SELECT ROW(-1, o.id, o.listed_at, o.search_vector, o.name_vector, o.name, o.metadata->>'description')::search_count_change
        FROM old_rows o);
      BEGIN
        UPDATE search_vocabulary SET tools = 0;
        PERFORM 1 FROM search_vocabulary v WHERE v.tools <= 0 AND v.word IN (
          SELECT w FROM unnest(changes) AS change_set, search_text_words(change_set.name, change_set.description) AS w);
        RETURN NULL;
      END $$`);
    await env.explain(`CREATE TRIGGER emptied_probe AFTER UPDATE ON sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.emptied_probe()`);
    try {
      const plans = await env.explain(`UPDATE sites SET name = name WHERE status = 'live'`);
      const looped = plans.flatMap((p) => wholeSetScansInLoops(p.plan));
      expect(
        looped.some((where) => where.startsWith('Function Scan on unnest change_set inside')),
        looped.join('; '),
      ).toBe(true);
    } finally {
      await env.explain('ROLLBACK');
      await env.explain('DISCARD PLANS');
    }
  });

  it('the rule catches the shape that was quadratic (drizzle/0029: EXISTS over old_rows joined to new_rows)', async () => {
    for (const setting of nestedLoopsWherePossible) await env.explain(setting);
    await env.explain(`CREATE TEMP TABLE probe_seen (n int)`);
    await env.explain(`CREATE FUNCTION pg_temp.exists_probe() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                   WHERE (n.status = 'live' OR o.status = 'live') AND n IS DISTINCT FROM o) THEN
          INSERT INTO probe_seen VALUES (1);
        END IF;
        RETURN NULL;
      END $$`);
    await env.explain(`CREATE TRIGGER exists_probe AFTER UPDATE ON sites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.exists_probe()`);
    try {
      const plans = await env.explain(`UPDATE sites SET name = name WHERE status = 'live'`);
      const looped = plans.flatMap((p) => wholeSetScansInLoops(p.plan));
      expect(looped).toContain(`Named Tuplestore Scan inside Named Tuplestore Scan run ${TOOLS} times`);
    } finally {
      await env.explain('DROP TRIGGER exists_probe ON sites');
      for (const setting of plannerDefaults) await env.explain(setting);
    }
  });
}

describe('trigger plans on PGlite', () => {
  triggerPlanSuite(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooldir-plans-'));
    cpSync(inject('pgliteTemplate'), join(dir, 'pglite'), { recursive: true });
    const client = await PGlite.create(join(dir, 'pglite'), { extensions: { pg_trgm, auto_explain } });
    for (const setting of autoExplainToClient) await client.exec(setting);
    const explain: Explain = async (statement) => {
      const notices: string[] = [];
      await client.query(statement, [], { onNotice: (notice) => notices.push(notice.message ?? '') });
      return notices.map(parseAutoExplain).filter((p): p is ExplainedStatement => p !== undefined);
    };
    return {
      db: drizzle(client, { schema }) as unknown as Db,
      explain,
      close: async () => {
        await client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describePg('trigger plans on a real PostgreSQL server', () => {
  triggerPlanSuite(async () => {
    const server: PostgresServer = await startPostgres();
    const opened: OpenedDb = await openNodePostgres(server.connectionString, { max: 2 });
    const client = new pg.Client({ connectionString: server.connectionString });
    await client.connect();
    for (const setting of autoExplainToClient) await client.query(setting);
    let notices: string[] = [];
    client.on('notice', (notice) => notices.push(notice.message ?? ''));
    const explain: Explain = async (statement) => {
      notices = [];
      await client.query(statement);
      return notices.map(parseAutoExplain).filter((p): p is ExplainedStatement => p !== undefined);
    };
    return {
      db: opened.db,
      explain,
      close: async () => {
        await client.end();
        await opened.close();
        await server.close();
      },
    };
  });
});
