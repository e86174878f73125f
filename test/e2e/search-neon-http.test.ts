// Directory search on real PostgreSQL through the production driver (drizzle neon-http against the Neon
// SQL-over-HTTP stand-in): the relevance set (test/helpers/search-relevance-set.ts) gives the same results as on
// the embedded database, and every search is one request to the database, a typo fallback's first page and
// every later page included (docs/mcp-and-search.md "Speed").
import { beforeAll, expect, it } from 'vitest';
import { findPostgresBinaries } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import { useNeonTestApp } from '../helpers/standins/neon-database';
import { recordedQuality, relevanceCases } from '../helpers/search-relevance-set';
import { seedRelevanceDirectory } from '../helpers/search-relevance-seed';
import { quality } from '../helpers/search-relevance-metrics';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

let ipCounter = 0;
const ip = () => ({ 'cf-connecting-ip': `10.18.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
type Page = { tools: Array<{ name: string }>; next_cursor: string | null };

describePg('search on PostgreSQL through drizzle neon-http', () => {
  const app = useNeonTestApp();
  beforeAll(async () => {
    await seedRelevanceDirectory(app.t.deps.db);
  });

  // One request for the search, and one more: the page cache reads the listing version first (here on every request,
  // as on Node; a Worker reads it at most once a second, in the background: docs/pages.md "Caching").
  const PER_PAGE = 1 + 1;

  /** One search page, and how many database requests it took. */
  async function search(params: Record<string, string | undefined>): Promise<{ page: Page; requests: number }> {
    const before = app.neon.requestCount;
    const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
    const res = await app.t.request(`/api/v1/tools?${new URLSearchParams(defined)}`, { headers: ip() });
    expect(res.status, JSON.stringify(params)).toBe(200);
    return { page: (await res.json()) as Page, requests: app.neon.requestCount - before };
  }

  it.each(relevanceCases.filter((c) => c.strict).map((c) => [c.why, c.query, c.category, c.expected] as const))(
    '%s: "%s" (category %s), in one search request',
    async (_why, q, category, expected) => {
      const { page, requests } = await search({ q, limit: '10', ...(category && { category }) });
      const names = page.tools.map((tool) => tool.name);
      expect(expected.length >= 3 ? names.slice(0, 3) : names).toEqual(expected);
      expect(requests).toBe(PER_PAGE);
    },
  );

  it('keeps the recorded precision at 5 and mean reciprocal rank on PostgreSQL too', async () => {
    const answers = [];
    for (const c of relevanceCases) {
      const { page } = await search({ q: c.query, limit: '10', ...(c.category && { category: c.category }) });
      answers.push({ case: c, results: page.tools.map((tool) => tool.name) });
    }
    const measured = quality(answers);
    expect(measured.precisionAt5).toBeGreaterThanOrEqual(recordedQuality.precisionAt5 - 1e-9);
    expect(measured.meanReciprocalRank).toBeGreaterThanOrEqual(recordedQuality.meanReciprocalRank - 1e-9);
  });

  it('pages through text, typo and category results one request per page, without duplicates or gaps', async () => {
    for (const params of [
      { q: 'chat' },
      { q: 'meeting' },
      { q: 'chatgtp' },
      { q: 'write', category: 'writing' },
      { q: '', category: 'writing' },
    ]) {
      const all = await search({ ...params, limit: '50' });
      expect(all.page.next_cursor).toBeNull(); // one page of 50 holds them all: the reference order
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const { page, requests }: { page: Page; requests: number } = await search({
          ...params,
          limit: '2',
          ...(cursor && { cursor }),
        });
        expect(requests).toBe(PER_PAGE);
        paged.push(...page.tools.map((tool) => tool.name));
        cursor = page.next_cursor;
      } while (cursor);
      expect(paged, JSON.stringify(params)).toEqual(all.page.tools.map((tool) => tool.name));
      expect(paged.length).toBeGreaterThan(0);
    }
  });
});
