// Under load the Node server reads the searches that wait for a connection together, several in one statement
// (src/directory/ranked-pages.ts). Each search must still get exactly the page it gets alone: every kind of search
// (names, descriptions, a category word, a typo, a word nobody uses, punctuation alone, a category filter, a page
// after a cursor, the words as typed) is asked once alone and once all at once through a server whose searches share
// one slot, on PGlite and on a real PostgreSQL server through node-postgres, and the answers must be the same bytes.
// Sent at once through the default deps (no batching), they must still go one statement each. And the planner must
// be told how many searches a statement can hold (16): costed with the 100 rows jsonb_to_recordset declares, a million
// tools' search crossed jit_above_cost and paid for JIT compilation on every search.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../../functions/app';
import { createMemoryPageCache } from '../../../../src/adapters/page-cache/memory';
import { createStatementBatching } from '../../../../src/db/statement-batching';
import { queryRows } from '../../../../src/db/client';
import { rankedPages } from '../../../../src/directory/ranked-pages';
import { MAX_SEARCHES_PER_STATEMENT, type RankedPageCall } from '../../../../src/directory/search-plan';
import { rankedPagesStatement } from '../../../../src/directory/search-statements';
import { seedTools } from '../../../helpers/live-tools';
import { findPostgresBinaries } from '../../../helpers/services/postgres';
import { usePostgresTestApp } from '../../../helpers/services/postgres-test-app';
import { requireService } from '../../../helpers/services/require-service';
import { type TestApp, usePgliteTestApp } from '../../../helpers/test-app';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

function batchedSuite(app: () => TestApp) {
  it('answers each search that waited beside others with the page it gets alone, in fewer statements', async () => {
    const t = app();
    await seedTools(t.deps.db, [
      { name: 'Quillvane Studio', description: 'Drafts meeting notes and summaries.', categories: ['writing'] },
      { name: 'Quillvane Lite', description: 'Short meeting notes.', isSponsor: true },
      { name: 'Quillvane Pro', description: 'Illustrations for slides.', categories: ['design'] },
      { name: 'Notes Keeper', description: 'Keeps quillvane exports.', categories: ['writing'], isFeature: true },
      { name: 'Sound Board', description: 'Plays clips.', categories: ['audio'] },
      { name: 'Meeting Scribe', description: 'Transcribes every meeting.', categories: ['audio', 'writing'] },
    ]);
    const first = (await (await t.request('/api/v1/tools?q=quillvane&limit=2')).json()) as { next_cursor: string };
    expect(first.next_cursor).toEqual(expect.any(String));
    const paths = [
      '/api/v1/tools?q=quillvane',
      '/api/v1/tools?q=quillvane+notes',
      '/api/v1/tools?q=meeting+notes',
      '/api/v1/tools?q=audio',
      '/api/v1/tools?q=quilvane',
      '/api/v1/tools?q=metting+notes',
      '/api/v1/tools?q=metting+notes&correct=false',
      '/api/v1/tools?q=zzqxv',
      '/api/v1/tools?q=%21%21%21',
      '/api/v1/tools?q=notes&category=writing',
      '/api/v1/tools?q=notes&category=no-such-category',
      `/api/v1/tools?q=quillvane&limit=2&cursor=${encodeURIComponent(first.next_cursor)}`,
      '/api/v1/tools?q=Quillvane+Studio',
      '/api/v1/tools?q=illustr',
    ];
    const answer = async (res: Response | Promise<Response>) => {
      const r = await res;
      return { status: r.status, body: await r.text() };
    };

    // Alone: one search at a time, each in a statement of its own (the default of buildDeps).
    const alone = [];
    for (const path of paths) alone.push(await answer(t.request(path)));
    expect(alone.filter((a) => a.status === 200)).toHaveLength(paths.length - 1); // the unknown category is a 400
    // Every answer differs but two: a word nobody uses and punctuation alone get the same offer.
    expect(new Set(alone.map((a) => a.body)).size).toBe(paths.length - 1);

    // Together: every search sent at once to a server whose searches share one slot (and a page cache of its own).
    const deps = { ...t.deps, batching: createStatementBatching({ slots: 1 }), pageCache: createMemoryPageCache() };
    const together = createApp(deps);
    const answers = await Promise.all(
      paths.map((path, i) =>
        answer(together.request(`http://tooldir.test${path}`, { headers: { 'cf-connecting-ip': `198.51.100.${i}` } })),
      ),
    );
    expect(answers).toEqual(alone);
    const counts = rankedPages(deps).counts();
    expect(counts.calls).toBe(paths.length);
    expect(counts.largestBatch).toBeGreaterThan(1);
    expect(counts.statements).toBeLessThan(paths.length);

    // The default of buildDeps (PGlite, Workers) never batches: the same searches at once, one statement each.
    const unbatched = createApp({ ...t.deps, pageCache: createMemoryPageCache() });
    const before = rankedPages(t.deps).counts().statements;
    const again = await Promise.all(
      paths.map((path, i) =>
        answer(unbatched.request(`http://tooldir.test${path}`, { headers: { 'cf-connecting-ip': `198.51.100.${i}` } })),
      ),
    );
    expect(again).toEqual(alone);
    expect(rankedPages(t.deps).counts().statements - before).toBe(paths.length);
    expect(rankedPages(t.deps).counts().largestBatch).toBe(1);
  });
}

/** The planner's estimate of the statement of `calls`: the rows of its top node. */
async function estimate(t: TestApp, calls: RankedPageCall[]) {
  const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
    t.deps.db,
    sql`EXPLAIN (FORMAT JSON) ${rankedPagesStatement(calls)}`,
  );
  const plan = (typeof row!['QUERY PLAN'] === 'string' ? JSON.parse(row!['QUERY PLAN']) : row!['QUERY PLAN']) as [
    { Plan: { 'Plan Rows': number } },
  ];
  return plan[0].Plan;
}

function estimateSuite(app: () => TestApp) {
  it('tells the planner how many searches a statement can hold, and refuses more', async () => {
    const call: RankedPageCall = { query: 'quillvane', category: undefined, take: 21, correct: true, after: undefined };
    const one = await estimate(app(), [call]);
    const full = await estimate(
      app(),
      Array.from({ length: MAX_SEARCHES_PER_STATEMENT }, () => call),
    );
    expect(one['Plan Rows']).toBe(MAX_SEARCHES_PER_STATEMENT);
    expect(full['Plan Rows']).toBe(MAX_SEARCHES_PER_STATEMENT);
    expect(() => rankedPagesStatement(Array.from({ length: MAX_SEARCHES_PER_STATEMENT + 1 }, () => call))).toThrow(
      /at most 16/,
    );
  });
}

describe('searches read together on PGlite', () => {
  const pglite = usePgliteTestApp();
  batchedSuite(() => pglite.t);
  estimateSuite(() => pglite.t);
});

describePg('searches read together on PostgreSQL (node-postgres)', () => {
  const pg = usePostgresTestApp({ connections: 2 });
  batchedSuite(() => pg.t);
  estimateSuite(() => pg.t);
});
