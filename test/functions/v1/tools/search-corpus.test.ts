import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findPostgresBinaries } from '../../../helpers/services/postgres';
import { requireService } from '../../../helpers/services/require-service';
import { useNeonTestApp } from '../../../helpers/standins/neon-database';
import { queryRows } from '../../../../src/db/client';
import { type TestApp, usePgliteTestApp } from '../../../helpers/test-app';
import { loadSearchCorpus, type LoadedCorpus } from '../../../helpers/search-corpus-load';
import { rngFrom, type CorpusTool } from '../../../helpers/search-corpus';
import { SEARCH_KINDS, drawSearch, type DrawnSearch } from '../../../helpers/search-corpus-queries';
import { searchOracle, type Expected, type OracleCategory } from '../../../helpers/search-corpus-oracle';
import { queryTerms } from '../../../../src/directory/search-terms';

// Every kind of search issues 23 and 32 time (test/helpers/search-corpus-queries.ts), drawn afresh on each run from a
// generated directory with the shapes of real listings (test/helpers/search-corpus.ts), through GET /api/v1/tools:
// each page must be exactly what the ranking rules give (test/helpers/search-corpus-oracle.ts computes them the
// slow way: category words, typos corrected by edit distance), a corrected answer names its correction, pages follow
// each other through the cursor without repeating a tool, and the last page says so.
// The directory is large enough that search meets every path it takes at 100,000 tools: pages answered by the
// newest tools alone, by reading further in listing order, and by the GIN indexes. It runs on the embedded database
// and on PostgreSQL 15 through Neon's HTTP driver (the production path). A failure names the seed;
// SEARCH_CORPUS_SEED=<seed> replays it.

const TOOLS = 3000;
const DRAWS_PER_KIND = 4;
/** Pages read per search at least (a drawn "page 2 and later" reads up to its page). */
const PAGES = 3;
const seed = Number(process.env.SEARCH_CORPUS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** The checks, on the app `app()` returns; the directory is loaded into its database first. */
function corpusSuite(app: () => TestApp) {
  let corpus: LoadedCorpus;
  let tools: CorpusTool[];
  let oracle: ReturnType<typeof searchOracle>;
  let categoryWords: string[];
  beforeAll(async () => {
    corpus = await loadSearchCorpus(app().deps.db, { tools: TOOLS, seed });
    tools = Array.from({ length: TOOLS }, (_, i) => corpus.tool(i));
    // The categories as the database holds them: the lexemes that find each, and the words a typo may become.
    const categories = await queryRows<OracleCategory>(
      app().deps.db,
      sql`SELECT c.slug, tsvector_to_array(c.search_terms) AS lexemes,
            ARRAY(SELECT DISTINCT w FROM regexp_split_to_table(lower(c.name || ' ' || array_to_string(c.synonyms, ' ')), '[^[:alnum:]]+') AS w WHERE w <> '') AS words
          FROM categories c`,
    );
    categoryWords = categories.flatMap((c) => c.words);
    oracle = searchOracle(tools, categories);
  }, 120_000);

  let ip = 0;
  type Page = {
    tools: Array<{ slug: string }>;
    next_cursor: string | null;
    suggestion: { query: string; corrected_from: string } | null;
  };

  async function page(drawn: DrawnSearch, cursor: string | undefined): Promise<Page> {
    const params = new URLSearchParams({ q: drawn.query, limit: String(drawn.limit) });
    if (drawn.category) params.set('category', drawn.category);
    if (cursor) params.set('cursor', cursor);
    const res = await app().request(`/api/v1/tools?${params}`, {
      headers: { 'cf-connecting-ip': `10.23.${Math.floor(++ip / 250)}.${ip % 250}` },
    });
    expect(res.status, `${params}`).toBe(200);
    return (await res.json()) as Page;
  }

  /**
   * The answer the ranking rules give. The query's words go through the english stemmer first, as in to_tsquery
   * ("vavos", typed halfway, is looked up as "vavo"); the corpus's own words are their own lexemes.
   */
  async function expected(drawn: DrawnSearch): Promise<Expected> {
    // The query's words and every word a correction may bring (a category's: English words the stemmer changes).
    const words = [...queryTerms(drawn.query), ...categoryWords];
    const rows = await queryRows<{ word: string; lexeme: string | null }>(
      app().deps.db,
      sql`SELECT w AS word, (ts_lexize('english_stem', w))[1] AS lexeme FROM jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) AS w`,
    );
    const lexemes = new Map(rows.map((row) => [row.word, row.lexeme ?? '']));
    return oracle(drawn, (word) => lexemes.get(word) ?? word);
  }

  /** Reads the first pages of `drawn` and checks each against the ranking rules. */
  async function checkPages(drawn: DrawnSearch) {
    const want = await expected(drawn);
    const why = `seed ${seed}: ${JSON.stringify(drawn)} (${want.mode}${want.corrected ? ` "${want.corrected}"` : ''}, ${want.order.length} matches)`;
    const indexOf = new Map(Array.from({ length: TOOLS }, (_, i) => [corpus.slugOf(i), i]));
    const seen = new Set<number>();
    let cursor: string | undefined;
    for (let n = 0; n < Math.max(PAGES, drawn.page); n++) {
      const answer = await page(drawn, cursor);
      const got = answer.tools.map((tool) => indexOf.get(tool.slug));
      expect(got, `page ${n + 1} of ${why}`).toEqual(want.order.slice(n * drawn.limit, (n + 1) * drawn.limit));
      // Every page of a corrected answer names its correction; no other answer does.
      expect(answer.suggestion, `suggestion on page ${n + 1} of ${why}`).toEqual(
        want.corrected && got.length
          ? { query: want.corrected, corrected_from: drawn.query.replace(/\s+/g, ' ').trim() }
          : null,
      );
      for (const index of got) {
        expect(seen.has(index!), `page ${n + 1} repeats a tool: ${why}`).toBe(false);
        seen.add(index!);
      }
      expect(answer.next_cursor === null, `next_cursor of page ${n + 1}: ${why}`).toBe(
        want.order.length <= (n + 1) * drawn.limit,
      );
      if (!answer.next_cursor) break;
      cursor = answer.next_cursor;
    }
  }

  it('holds only words the english stemmer leaves alone, so the expected answers are exact', async () => {
    const rows = await queryRows<{ slug: string; lexemes: string[] }>(
      app().deps.db,
      sql`SELECT slug, array(SELECT l FROM unnest(tsvector_to_array(search_vector)) l WHERE l NOT LIKE '#%' ORDER BY l) AS lexemes FROM sites WHERE status = 'live'`,
    );
    const bySlug = new Map(rows.map((row) => [row.slug, row.lexemes]));
    const stop = new Set(['for', 'with', 'and', 'your', 'the']);
    for (let i = 0; i < TOOLS; i++) {
      const words = `${tools[i]!.name} ${tools[i]!.description}`
        .toLowerCase()
        .match(/[a-z0-9]+/g)!
        .filter((w) => !stop.has(w));
      expect(bySlug.get(corpus.slugOf(i)), tools[i]!.name).toEqual([...new Set(words)].sort());
    }
  });

  it.each(SEARCH_KINDS)(
    '%s: every page is the ranked answer, the cursor continues it without repeats',
    async (kind) => {
      const rng = rngFrom(seed, SEARCH_KINDS.indexOf(kind));
      for (let i = 0; i < DRAWS_PER_KIND; i++) await checkPages(drawSearch(rng, corpus.vocabulary, corpus.tool, kind));
    },
  );

  it('puts a tool whose name is the query first, then names with every word, then descriptions', async () => {
    const rng = rngFrom(seed, 99);
    for (let i = 0; i < DRAWS_PER_KIND; i++) {
      const tool = tools[Math.floor(rng() * TOOLS)]!;
      const drawn: DrawnSearch = { kind: 'one common word', query: tool.name, limit: 20, page: 1 };
      const want = await expected(drawn);
      expect(tools[want.order[0]!]!.name).toBe(tool.name);
      await checkPages(drawn);
    }
  });
}

describe('search over a generated directory, on the embedded database', () => {
  const pglite = usePgliteTestApp();
  corpusSuite(() => pglite.t);
});

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('search over a generated directory, on PostgreSQL through drizzle neon-http', () => {
  const neon = useNeonTestApp();
  corpusSuite(() => neon.t);
});
